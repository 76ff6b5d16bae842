//! Which templates a command renders (tool-owned, `init`'s, one kind's) and in which scopes
//! (project, group, version, kind), and rendering them into files.

use super::catalogue::{ENTRIES, Entry, Needs, Scope};
use super::context::{self, GroupVars, ProjectVars, ResourceVars, Scoped, VersionVars};
use super::templates::{self, Rendered};
use super::{InitOptions, Templates};
use crate::project::{Project, Resource, layout};

/// Which templates to render.
#[derive(Clone, Copy)]
pub(crate) enum Select<'a> {
    /// Every tool-owned template, for every version and kind of the project.
    ToolOwned,
    /// The user-owned templates `init` writes.
    InitUserOwned,
    /// The user-owned templates of one kind, and of its version.
    UserOwnedOf(&'a Resource),
}

/// Renders the templates `select` picks for `project`.
pub(crate) fn render(
    templates: &Templates,
    project: &Project,
    init: Option<&InitOptions>,
    select: Select,
) -> Result<Vec<Rendered>, templates::Error> {
    Ok(render_owned(templates, project, init, select)?
        .into_iter()
        .map(|(_, file)| file)
        .collect())
}

/// [`render`], each file with whether it is a kind's own (its template's path names the kind):
/// not a file kinds share, as a version's module or the samples' kustomization.
pub(crate) fn render_owned(
    templates: &Templates,
    project: &Project,
    init: Option<&InitOptions>,
    select: Select,
) -> Result<Vec<(bool, Rendered)>, templates::Error> {
    let project_vars = ProjectVars::new(project, init);
    let mut out = Vec::new();
    let mut rust = Vec::new();
    for entry in ENTRIES {
        // Another webop's templates (`Templates::from_dir`) may lack one of today's.
        let Some(template) = template_in(templates, entry.template) else {
            continue;
        };
        let tool_owned = templates.is_tool_owned(&template);
        let wanted = match select {
            Select::ToolOwned => tool_owned,
            Select::InitUserOwned => !tool_owned && entry.scope == Scope::Project,
            Select::UserOwnedOf(_) => !tool_owned && entry.scope != Scope::Project,
        };
        if !wanted {
            continue;
        }
        for scoped in instances(entry, project, init, select) {
            let mut file =
                templates.render_unformatted(&template, &project_vars.context(&scoped))?;
            let group = match &scoped {
                Scoped::Version(version) => version.group(),
                Scoped::Resource(resource) => Some(resource.group()),
                Scoped::Project | Scoped::Group(_) => None,
            };
            if let Some(group) = group {
                file.path = layout::place(&file.path, group, project.multigroup);
            }
            if file.is_tool_owned() != tool_owned {
                return Err(templates::Error {
                    template: entry.template.to_owned(),
                    message: "the DO NOT EDIT header must be the template's first line".into(),
                });
            }
            let own = ["{{ kind_lower }}", "{{ controller_file }}", "{{ plural }}"]
                .iter()
                .any(|name| entry.template.contains(name));
            if super::rustfmt::is_rust(&file.path) {
                rust.push(out.len());
            }
            out.push((own, file));
        }
    }
    // Laid out as `Templates::render` lays them out, rustfmt running for several at once.
    super::rustfmt::lay_out_all(rust.iter().map(|&index| out[index].1.contents.as_str()));
    for index in rust {
        let file = &mut out[index].1;
        file.contents = super::rustfmt::format(&file.contents);
    }
    Ok(out)
}

/// The scope of each file `entry` renders for `project`.
pub(crate) fn instances<'a>(
    entry: &Entry,
    project: &'a Project,
    init: Option<&InitOptions>,
    select: Select,
) -> Vec<Scoped<'a>> {
    match entry.scope {
        Scope::Project => {
            let applies = match entry.needs {
                Needs::WebopPath => init.is_some_and(|i| i.webop_path.is_some()),
                Needs::Webhooks => project.resources.iter().any(|r| r.webhooks.is_some()),
                _ => true,
            };
            applies.then_some(Scoped::Project).into_iter().collect()
        }
        Scope::Group => context::api_groups(project)
            .into_iter()
            .filter(|g| match select {
                Select::UserOwnedOf(only) => only.api.is_some() && *g == only.group,
                _ => true,
            })
            .map(|g| Scoped::Group(GroupVars::new(project, g)))
            .collect(),
        Scope::Version => context::api_versions(project)
            .into_iter()
            .filter(|(g, v)| match select {
                Select::UserOwnedOf(only) => {
                    only.api.is_some() && *v == only.version && g.is_none_or(|g| g == only.group)
                }
                _ => true,
            })
            .map(|(g, v)| Scoped::Version(VersionVars::new(project, g, v)))
            .collect(),
        Scope::WebhookVersion => context::webhook_versions(project)
            .into_iter()
            .filter(|_| matches!(select, Select::ToolOwned))
            .map(|(g, v)| Scoped::Version(VersionVars::new(project, g, v)))
            .collect(),
        Scope::Resource => project
            .resources
            .iter()
            .filter(|r| match select {
                Select::UserOwnedOf(only) => *r == only,
                _ => true,
            })
            .filter(|r| {
                let conversion = r.webhooks.as_ref().is_some_and(|w| w.conversion);
                let flavour = super::catalogue::Flavour::of(project, r);
                entry
                    .needs
                    .met_by(r.api.is_some(), r.has_controller(), flavour, conversion)
                    && super::catalogue::belongs_to(r, entry.needs, entry.template)
            })
            .flat_map(|r| match entry.needs {
                // A controller's files, once for each controller of the kind.
                Needs::Controller(_) => ResourceVars::controllers(project, r),
                _ => vec![ResourceVars::new(project, r)],
            })
            .map(|vars| Scoped::Resource(Box::new(vars)))
            .collect(),
    }
}

/// The name of `template` in `templates`: sets before named controllers spelled a
/// controller's files by the kind (`{{ kind_lower }}_controller.rs`), which every set still
/// renders the same for a kind's only controller.
fn template_in<'t>(templates: &Templates, template: &'t str) -> Option<std::borrow::Cow<'t, str>> {
    if templates.has(template) {
        return Some(template.into());
    }
    let former = template.replace("{{ controller_file }}", "{{ kind_lower }}");
    templates.has(&former).then_some(former.into())
}
