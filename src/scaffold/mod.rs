//! The scaffold engine: from the PROJECT file and a command's request to a [`Plan`] of file
//! changes, then to the tree, all or nothing.
//!
//! Every generated file is either tool-owned (its first line is the `DO NOT EDIT` header; every
//! command re-renders it from PROJECT, and refuses to overwrite it when the user edited it) or
//! user-owned (written by the command that introduces it, then left alone unless `--force`).
//! `create api` extends user-owned files only at their `+webop:scaffold:<name>` markers.

pub mod apply;
pub mod catalogue;
pub mod context;
pub mod edit;
pub mod fs;
pub mod grafana;
mod group_vars;
pub mod helm;
mod identifiers;
pub mod kustomize;
pub mod layout;
pub mod license;
pub mod markers;
pub mod plan;
pub mod relayout;
pub mod templates;
pub mod webhook;

use std::collections::{HashMap, HashSet};
use std::path::Path;

pub use apply::{ApplyError, apply};
pub use context::InitOptions;
pub use fs::{FileSystem, RealFs};
pub use plan::{Action, Change, Conflict, Plan, Planner};
pub use templates::Templates;
pub use webhook::DeleteWebhook;

use crate::project::{Project, Resource};
use catalogue::{ENTRIES, Entry, INSERTIONS, Insertion, Needs, Place, Scope};
use context::GroupVars;
use context::{ProjectVars, ResourceVars, Scoped, VersionVars};
use templates::Rendered;

/// What a command asks of the engine.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The project root.
    pub root: &'a Path,
    /// The PROJECT file before the command (`None` for `init`).
    pub before: Option<&'a Project>,
    /// The PROJECT file after the command.
    pub after: &'a Project,
    /// What the command writes beyond the tool-owned files, which every command re-renders.
    pub command: Command<'a>,
    /// Overwrite user-owned and edited tool-owned files.
    pub force: bool,
}

/// The files a command writes beyond the tool-owned ones.
#[derive(Clone, Copy, Debug)]
pub enum Command<'a> {
    /// `init`: the project's user-owned files, with these options.
    Init(&'a InitOptions),
    /// `create api`: the user-owned files of this kind, and its insertions.
    CreateApi(&'a Resource),
    /// `manifests`: files regenerated from the code, `(path, contents)`.
    Manifests(&'a [(String, String)]),
    /// `delete api`: remove what `create api` of this kind (recorded in `before`, gone from
    /// `after`) wrote, and its CRD when no version of the kind is left.
    DeleteApi(&'a Resource),
    /// `import crd`: what `create api --controller=false` of each kind writes, with the
    /// imported source as the kind's `<kind>_types.rs`, which must not exist (unless `force`).
    ImportApi(&'a [ImportedApi]),
    /// `edit`: with `rescope`, the manager's scope of `after` carried into the files `init` wrote
    /// for it; then `removed` (files moved away by `--multigroup`) go, and `files`,
    /// `(path, contents)` computed from the code or from the files as they are (the manager's
    /// role, the license lines, the moved files), are written as they are.
    Edit {
        rescope: bool,
        files: &'a [(String, String)],
        removed: &'a [String],
        /// `--plugins`: the plugins' user-owned files are written too (kept if they exist).
        plugins: bool,
    },
    /// `create webhook`: the kind's webhook files and the edits that enable them.
    CreateWebhook(webhook::CreateWebhook<'a>),
    /// `delete webhook`: what `create webhook` of the kind's removed types wrote and edited.
    DeleteWebhook(webhook::DeleteWebhook<'a>),
}

/// One kind and version `import crd` adds: its resource and the source of its types file.
#[derive(Clone, Debug)]
pub struct ImportedApi {
    pub resource: Resource,
    pub source: String,
}

impl ImportedApi {
    /// The types file, relative to the project root.
    pub fn types_path(&self, project: &Project) -> String {
        let path = format!(
            "api/src/{}/{}_types.rs",
            self.resource.version,
            self.resource.kind.to_ascii_lowercase()
        );
        layout::place(&path, &self.resource.group, project.multigroup)
    }
}

/// Why no plan could be made. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Template(#[from] templates::Error),
    #[error(transparent)]
    Conflict(#[from] Conflict),
    #[error(transparent)]
    License(#[from] license::Refused),
    #[error(transparent)]
    Unreadable(#[from] helm::Unreadable),
    #[error(transparent)]
    GrafanaConfig(#[from] grafana::BadConfig),
}

/// Plans `request` against the tree seen through `fs`.
pub fn plan(fs: &dyn FileSystem, templates: &Templates, request: &Request) -> Result<Plan, Error> {
    let mut planner = Planner::new(request.root, fs, request.force);

    let previous: HashMap<String, String> = match request.before {
        Some(before) => render(templates, before, None, Select::ToolOwned)?
            .into_iter()
            .map(|r| (r.path, r.contents))
            .collect(),
        None => HashMap::new(),
    };
    let current = render(templates, request.after, None, Select::ToolOwned)?;
    for (path, contents) in &previous {
        // A file rendered only for something the command takes away (`delete api`).
        if !current.iter().any(|file| file.path == *path) {
            planner.remove(path, Some(contents))?;
        }
    }
    for file in current {
        let before = previous.get(&file.path).map(String::as_str);
        planner.tool_owned(&file.path, file.contents, before)?;
    }

    match request.command {
        Command::Init(init) => {
            for file in render(templates, request.after, Some(init), Select::InitUserOwned)? {
                planner.user_owned(&file.path, file.contents)?;
            }
        }
        Command::CreateApi(resource) => {
            for file in render(
                templates,
                request.after,
                None,
                Select::UserOwnedOf(resource),
            )? {
                planner.user_owned(&file.path, file.contents)?;
            }
            for Inserted {
                file,
                insertion,
                lines,
            } in insertions(templates, request.after, resource)?
            {
                planner.insert(&file, insertion.marker, &lines, insertion.order)?;
            }
        }
        Command::ImportApi(imported) => {
            for api in imported {
                let types = api.types_path(request.after);
                // An external API's types live in the API crate; it has no CRD, roles or sample.
                let wanted = |path: &str| !api.resource.external || path.starts_with("api/");
                for file in render(
                    templates,
                    request.after,
                    None,
                    Select::UserOwnedOf(&api.resource),
                )? {
                    if !wanted(&file.path) {
                        continue;
                    }
                    if file.path == types {
                        planner.user_owned_new(&file.path, api.source.clone())?;
                    } else {
                        planner.user_owned(&file.path, file.contents)?;
                    }
                }
                for Inserted {
                    file,
                    insertion,
                    lines,
                } in insertions(templates, request.after, &api.resource)?
                {
                    if wanted(&file) {
                        planner.insert(&file, insertion.marker, &lines, insertion.order)?;
                    }
                }
            }
        }
        Command::DeleteApi(resource) => {
            let before = request.before.expect("delete api has a project before");
            delete_api(&mut planner, templates, before, request.after, resource)?;
        }
        Command::Edit {
            rescope,
            files,
            removed,
            ..
        } => {
            if rescope {
                let before = request.before.expect("edit has a project before");
                edit::rewrite(&mut planner, templates, before, request.after, files)?;
            }
            for path in removed {
                planner.remove(path, None)?;
            }
            for (path, contents) in files {
                planner.generated(path, contents.clone())?;
            }
        }
        Command::CreateWebhook(create) => {
            webhook::plan(
                &mut planner,
                fs,
                request.root,
                templates,
                request.after,
                create,
                request.force,
            )?;
        }
        Command::DeleteWebhook(delete) => {
            let before = request.before.expect("delete webhook has a project before");
            webhook::delete::plan(
                &mut planner,
                fs,
                request.root,
                templates,
                before,
                request.after,
                delete,
            )?;
        }
        Command::Manifests(generated) => {
            for (path, contents) in generated {
                planner.generated(path, contents.clone())?;
            }
        }
    }
    // Last: the chart and the dashboards follow the files as the command leaves them.
    let plugin_edit = matches!(request.command, Command::Edit { plugins: true, .. });
    helm::plan(
        &mut planner,
        templates,
        request.before,
        request.after,
        plugin_edit,
    )?;
    grafana::plan(&mut planner, request.before, request.after, plugin_edit)?;
    Ok(planner.finish()?)
}

/// The lines of one insertion point, rendered for one kind.
struct Inserted {
    /// The file, relative to the project root.
    file: String,
    insertion: &'static Insertion,
    lines: Vec<String>,
}

/// The lines `create api` of `resource` adds at the insertion points of user-owned files.
fn insertions(
    templates: &Templates,
    project: &Project,
    resource: &Resource,
) -> Result<Vec<Inserted>, Error> {
    let context = ProjectVars::new(project, None).context(&Scoped::Resource(Box::new(
        ResourceVars::new(project, resource),
    )));
    let deploy_image = project.deploy_image_options(resource).is_some();
    let mut out = Vec::new();
    for insertion in INSERTIONS {
        if insertion.place == Place::GroupModule && !project.multigroup {
            continue;
        }
        if !insertion.needs.met_by(
            resource.api.is_some(),
            resource.controller,
            deploy_image,
            false,
        ) {
            continue;
        }
        let lines = insertion
            .lines
            .iter()
            .map(|line| templates.render_str(line, &context))
            .collect::<Result<Vec<_>, _>>()?;
        let file = templates.render_str(insertion.file, &context)?;
        let file = match insertion.place {
            Place::Group => layout::place(&file, &resource.group, project.multigroup),
            Place::Project | Place::GroupModule => file,
        };
        out.push(Inserted {
            file,
            insertion,
            lines,
        });
    }
    Ok(out)
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
    for file in render(templates, before, None, Select::UserOwnedOf(resource))? {
        if !kept_files.contains(&file.path) {
            let lines = gone.get(&file.path).map_or(&[][..], Vec::as_slice);
            planner.remove(&file.path, Some(&markers::remove(&file.contents, lines)))?;
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
fn render(
    templates: &Templates,
    project: &Project,
    init: Option<&InitOptions>,
    select: Select,
) -> Result<Vec<Rendered>, templates::Error> {
    let project_vars = ProjectVars::new(project, init);
    let mut out = Vec::new();
    for entry in ENTRIES {
        // Another webop's templates (`Templates::from_dir`) may lack one of today's.
        if !templates.has(entry.template) {
            continue;
        }
        let tool_owned = templates.is_tool_owned(entry.template);
        let wanted = match select {
            Select::ToolOwned => tool_owned,
            Select::InitUserOwned => !tool_owned && entry.scope == Scope::Project,
            Select::UserOwnedOf(_) => !tool_owned && entry.scope != Scope::Project,
        };
        if !wanted {
            continue;
        }
        for scoped in instances(entry, project, init, select) {
            let mut file = templates.render(entry.template, &project_vars.context(&scoped))?;
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
            out.push(file);
        }
    }
    Ok(out)
}

/// The scope of each file `entry` renders for `project`.
fn instances<'a>(
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
        Scope::WebhookVersion => context::api_versions(project)
            .into_iter()
            .filter(|(g, v)| {
                project.resources.iter().any(|r| {
                    r.version == *v
                        && g.is_none_or(|g| g == r.group)
                        && r.webhooks.as_ref().is_some_and(|w| w.admission())
                })
            })
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
                let deploy_image = project.deploy_image_options(r).is_some();
                let conversion = r.webhooks.as_ref().is_some_and(|w| w.conversion);
                entry
                    .needs
                    .met_by(r.api.is_some(), r.controller, deploy_image, conversion)
            })
            .map(|r| Scoped::Resource(Box::new(ResourceVars::new(project, r))))
            .collect(),
    }
}

#[cfg(test)]
mod tests;
