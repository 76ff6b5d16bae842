//! The variables of a project's API groups: the multigroup layout's group modules, and the
//! versions and controllers of each group as templates list them.

use serde::Serialize;

use super::version_order;
use crate::project::Project;
use crate::project::layout;

/// Items of one group's module, in module order.
#[derive(Clone, Debug, Serialize)]
pub struct ModuleGroup<T> {
    /// The group's module (`ship`), `""` in a single-group project.
    pub(super) module: String,
    pub(super) items: Vec<T>,
}

/// `items` (in module order) split by their group's module, in module order.
pub(super) fn by_group<T: Clone>(
    items: &[T],
    module: impl Fn(&T) -> String,
) -> Vec<ModuleGroup<T>> {
    let mut groups: Vec<ModuleGroup<T>> = Vec::new();
    for item in items {
        let module = module(item);
        match groups.iter_mut().find(|g| g.module == module) {
            Some(group) => group.items.push(item.clone()),
            None => groups.push(ModuleGroup {
                module,
                items: vec![item.clone()],
            }),
        }
    }
    groups.sort_by(|a, b| version_order(&a.module, &b.module));
    groups
}

/// The variables of an API group of a multigroup project: its module and versions.
#[derive(Clone, Debug, Serialize)]
pub struct GroupVars<'a> {
    group: &'a str,
    group_module: String,
    /// The versions of the group with an API type, in module order.
    group_versions: Vec<&'a str>,
}

impl<'a> GroupVars<'a> {
    pub fn new(project: &'a Project, group: &'a str) -> Self {
        GroupVars {
            group,
            group_module: layout::group_module(group),
            group_versions: api_versions(project)
                .into_iter()
                .filter(|(g, _)| *g == Some(group))
                .map(|(_, v)| v)
                .collect(),
        }
    }
}

/// The versions that have at least one API type, in version order (`v1`, `v1beta1`, `v2`); in
/// a multigroup project each group's, by group module then version, with their group.
pub fn api_versions(project: &Project) -> Vec<(Option<&str>, &str)> {
    versions_where(project, |r| r.api.is_some())
}

/// The versions (with their group in a multigroup project) whose kinds have admission webhooks:
/// the project's own kinds and Kubernetes' (`core: true`), in module order.
pub fn webhook_versions(project: &Project) -> Vec<(Option<&str>, &str)> {
    versions_where(project, |r| r.admission_webhooks())
}

fn versions_where(
    project: &Project,
    keep: impl Fn(&crate::project::Resource) -> bool,
) -> Vec<(Option<&str>, &str)> {
    let mut versions: Vec<(Option<&str>, &str)> = project
        .resources
        .iter()
        .filter(|r| keep(r))
        .map(|r| {
            let group = project.multigroup.then_some(r.group.as_str());
            (group, r.version.as_str())
        })
        .collect();
    versions.sort_by(|(ga, a), (gb, b)| {
        let module = |g: &Option<&str>| g.map(layout::group_module).unwrap_or_default();
        version_order(&module(ga), &module(gb)).then_with(|| version_order(a, b))
    });
    versions.dedup();
    versions
}

/// The API groups of a multigroup project (none when single-group), in module order.
pub fn api_groups(project: &Project) -> Vec<&str> {
    let mut groups: Vec<&str> = api_versions(project)
        .into_iter()
        .filter_map(|(g, _)| g)
        .collect();
    groups.dedup();
    groups
}
