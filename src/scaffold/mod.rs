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
mod crd_listing;
mod delete_api;
pub mod edit;
pub mod fs;
pub mod grafana;
pub mod helm;
mod identifiers;
mod insertions;
pub mod kustomize;
pub mod license;
pub mod markers;
pub mod plan;
pub mod relayout;
mod rendering;
pub mod rustfmt;
pub mod templates;
pub mod webhook;

use std::collections::HashMap;
use std::path::Path;

pub use apply::{ApplyError, apply};
pub use context::InitOptions;
pub use fs::{FileSystem, RealFs};
pub use plan::{Action, Change, Conflict, Plan, Planner};
pub use templates::Templates;
pub use webhook::DeleteWebhook;

use crate::project::{Project, Resource, layout};
use delete_api::delete_api;
use insertions::{Inserted, insertions};
pub(crate) use rendering::Select;
use rendering::{instances, render, render_owned};

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
            // A foreign kind's controller is all `create api` writes for it: its types are
            // k8s-openapi's, another crate's, or already imported (`import crd --external`).
            let wanted = |path: &str| {
                !resource.foreign() || path.starts_with("src/") || path.starts_with("tests/")
            };
            // `--force` scaffolds the kind's own files again; the files it shares with other
            // kinds keep their lines, and get the kind's at their markers.
            for (own, file) in render_owned(
                templates,
                request.after,
                None,
                Select::UserOwnedOf(resource),
            )? {
                if !wanted(&file.path) {
                    continue;
                }
                if own {
                    planner.user_owned(&file.path, file.contents)?;
                } else {
                    planner.user_owned_kept(&file.path, file.contents)?;
                }
            }
            let inserted = if resource.foreign() {
                Vec::new()
            } else {
                insertions(templates, request.after, resource)?
            };
            for Inserted {
                file,
                insertion,
                lines,
            } in inserted
            {
                if crd_listing::listed_later(&planner, insertion, &lines)? {
                    continue;
                }
                planner.insert(&file, insertion.marker, &lines, insertion.order)?;
            }
        }
        Command::ImportApi(imported) => {
            for api in imported {
                let types = api.types_path(request.after);
                for file in render(
                    templates,
                    request.after,
                    None,
                    Select::UserOwnedOf(&api.resource),
                )? {
                    // `--force` replaces the types alone: the kind's controller, roles and
                    // sample stay the user's.
                    if file.path == types {
                        planner.user_owned_new(&file.path, api.source.clone())?;
                    } else {
                        planner.user_owned_kept(&file.path, file.contents)?;
                    }
                }
                for Inserted {
                    file,
                    insertion,
                    lines,
                } in insertions(templates, request.after, &api.resource)?
                {
                    if !crd_listing::listed_later(&planner, insertion, &lines)? {
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
            crd_listing::list_written(&mut planner, generated)?;
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

#[cfg(test)]
mod tests;
