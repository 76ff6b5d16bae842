//! `delete api`: undoes what `create api` of one kind wrote, keeping what other kinds share.

use std::collections::{HashMap, HashSet};

use super::create_webhook::with_storage_version;
use crate::project::{Project, Resource, layout};
use crate::scaffold::insertions::{Inserted, insertions};
use crate::scaffold::rendering::{Select, render};
use crate::scaffold::{Error, Planner, Scaffold, Step, Templates, markers};

/// `delete api` of this kind (as recorded before the command; gone from `after`).
pub(super) struct DeleteApi<'a>(pub(super) &'a Resource);

impl Scaffold for DeleteApi<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        let before = step.before.expect("delete api has a project before");
        delete_api(planner, step.templates, before, step.after, self.0)
    }
}

/// `delete api` of `resource`: the lines it inserted that no remaining kind also needs, its
/// user-owned files that no remaining kind shares (unless the user edited them), and the CRD
/// once no version of the kind is left.
fn delete_api(
    planner: &mut Planner,
    templates: &Templates,
    before: &Project,
    after: &Project,
    resource: &Resource,
) -> Result<(), Error> {
    let mut kept_lines: HashSet<(String, String)> = HashSet::new();
    let mut kept_files: HashSet<String> = HashSet::new();
    for other in &after.resources {
        for Inserted { file, lines, .. } in insertions(templates, after, other)? {
            kept_lines.extend(lines.into_iter().map(|line| (file.clone(), line)));
        }
        for file in render(templates, after, None, Select::UserOwnedOf(other))? {
            kept_files.insert(file.path);
        }
    }
    let mut gone: HashMap<String, Vec<String>> = HashMap::new();
    for Inserted { file, lines, .. } in insertions(templates, before, resource)? {
        let lines: Vec<String> = lines
            .into_iter()
            .filter(|line| !kept_lines.contains(&(file.clone(), line.clone())))
            .collect();
        planner.remove_lines(&file, &lines)?;
        gone.entry(file).or_default().extend(lines);
    }
    // A file is as webop wrote it if it equals the render with the kind's lines taken out of
    // both: the kind's lines may come from the template (a version's first kind) or from an
    // insertion (the samples' kustomization, written bare and then extended).
    // The hub of a conversion keeps the `#[storage_version]` that `create webhook` gave it
    // when its webhook goes: webop's line, not an edit.
    let marked = planner
        .read_text(&types_path(before, resource))?
        .is_some_and(|text| text.lines().any(|l| l.trim() == "#[storage_version]"));
    for file in render(templates, before, None, Select::UserOwnedOf(resource))? {
        if !kept_files.contains(&file.path) {
            let lines = gone.get(&file.path).map_or(&[][..], Vec::as_slice);
            let mut written = markers::remove(&file.contents, lines);
            if marked && file.path == types_path(before, resource) {
                written = with_storage_version(&written, &resource.kind).unwrap_or(written);
            }
            planner.remove(&file.path, Some(&written))?;
        }
    }

    let kind_stays = after
        .resources
        .iter()
        .any(|r| r.api.is_some() && r.group == resource.group && r.kind == resource.kind);
    if resource.api.is_some() && !kind_stays {
        let path = crate::manifests::crd_path(&resource.qualified_group(), &resource.plural());
        planner.remove(&path.to_string_lossy(), None)?;
    }
    Ok(())
}

/// The kind's types file, relative to the project root.
fn types_path(project: &Project, resource: &Resource) -> String {
    let path = format!(
        "api/src/{}/{}_types.rs",
        resource.version,
        resource.kind.to_ascii_lowercase()
    );
    layout::place(&path, &resource.group, project.multigroup)
}
