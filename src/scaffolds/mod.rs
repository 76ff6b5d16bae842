//! The scaffold commands: one module per command with its part of the plan (what it writes
//! beyond the tool-owned files every command re-renders), as kubebuilder keeps one file per
//! command in `pkg/plugins/golang/v4/scaffolds`.
//!
//! [`plan`] hands the engine (`crate::scaffold`) the command's part and the optional plugins
//! (`crate::plugins`), which the engine plans after it: the engine names neither.

mod crd_listing;
mod create_api;
mod create_webhook;
mod delete_api;
mod delete_webhook;
pub mod edit;
mod import_api;
mod init;
mod manifests;

use std::path::Path;

pub use create_webhook::{CreateWebhook, conversion_is_incomplete};
pub use delete_webhook::DeleteWebhook;
pub use import_api::ImportedApi;

use crate::plugins;
use crate::project::{Project, Resource};
use crate::scaffold::{
    self, Error, FileSystem, InitOptions, Plan, Planner, Scaffold, Step, Templates,
};

/// What a command asks of the scaffold.
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
    CreateWebhook(CreateWebhook<'a>),
    /// `delete webhook`: what `create webhook` of the kind's removed types wrote and edited.
    DeleteWebhook(DeleteWebhook<'a>),
}

/// Each command's part is its module's.
impl Scaffold for Command<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        match *self {
            Command::Init(options) => init::Init(options).plan(planner, step),
            Command::CreateApi(resource) => create_api::CreateApi(resource).plan(planner, step),
            Command::Manifests(generated) => manifests::Manifests(generated).plan(planner, step),
            Command::DeleteApi(resource) => delete_api::DeleteApi(resource).plan(planner, step),
            Command::ImportApi(imported) => import_api::ImportApi(imported).plan(planner, step),
            Command::Edit {
                rescope,
                files,
                removed,
                ..
            } => edit::Edit {
                rescope,
                files,
                removed,
            }
            .plan(planner, step),
            Command::CreateWebhook(create) => create.plan(planner, step),
            Command::DeleteWebhook(delete) => delete.plan(planner, step),
        }
    }
}

/// Plans `request` against the tree seen through `fs`: the tool-owned files, the command's own,
/// then the plugins PROJECT records.
pub fn plan(fs: &dyn FileSystem, templates: &Templates, request: &Request) -> Result<Plan, Error> {
    let step = Step {
        root: request.root,
        fs,
        templates,
        before: request.before,
        after: request.after,
        force: request.force,
    };
    // Each plugin does nothing until PROJECT records it; `edit --plugins`, which records it,
    // writes its user-owned files too, and every later command keeps its generated ones.
    let user_files = matches!(request.command, Command::Edit { plugins: true, .. });
    let helm = plugins::helm::Plugin { user_files };
    let grafana = plugins::grafana::Plugin { user_files };
    // The workflow's template is in the template set: `init` writes it too, so the lock's replay
    // records it and `webop upgrade` merges its changes.
    let autoupdate = plugins::autoupdate::Plugin {
        user_files: user_files || matches!(request.command, Command::Init(_)),
    };
    scaffold::plan(&step, &request.command, &[&helm, &grafana, &autoupdate])
}

#[cfg(test)]
mod tests;
