//! The scaffold engine: from the PROJECT file before and after a command to a [`Plan`] of file
//! changes, then to the tree, all or nothing.
//!
//! Every generated file is either tool-owned (its first line is the `DO NOT EDIT` header; every
//! command re-renders it from PROJECT, and refuses to overwrite it when the user edited it) or
//! user-owned (written by the command that introduces it, then left alone unless `--force`).
//! Commands extend user-owned files only at their `+webop:scaffold:<name>` markers.
//!
//! The engine renders the tool-owned files itself; what a command writes beyond them, and what
//! the optional plugins keep in step after it, each is a [`Scaffold`] the engine is handed
//! (`crate::scaffolds` has the commands, `crate::plugins` the plugins): the engine names none of
//! them, as kubebuilder's `pkg/machinery` names no plugin.

pub mod apply;
pub mod catalogue;
pub mod context;
pub mod digest;
mod flavour;
pub mod fs;
mod identifiers;
pub(crate) mod insertions;
pub mod kustomize;
pub mod markers;
pub mod plan;
pub(crate) mod rendering;
pub mod rustfmt;
pub mod templates;

use std::collections::HashMap;
use std::path::Path;

pub use apply::{ApplyError, apply};
pub use context::InitOptions;
pub use fs::{FileSystem, RealFs};
pub use plan::{Action, Change, Conflict, Plan, Planner};
pub use templates::Templates;

use crate::project::Project;
use rendering::{Select, render};

/// What every part of a command's plan sees: the project before and after the command, and the
/// tree it changes.
#[derive(Clone, Copy)]
pub struct Step<'a> {
    /// The project root.
    pub root: &'a Path,
    /// The tree, read through this.
    pub fs: &'a dyn FileSystem,
    pub templates: &'a Templates,
    /// The PROJECT file before the command (`None` for `init`).
    pub before: Option<&'a Project>,
    /// The PROJECT file after the command.
    pub after: &'a Project,
    /// Overwrite user-owned and edited tool-owned files.
    pub force: bool,
}

/// A part of a plan beyond the tool-owned files: what one command writes, or what one plugin
/// keeps in step after it.
pub trait Scaffold {
    /// Adds this part's changes to `planner`, for `step`.
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error>;
}

/// Why no plan could be made. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Template(#[from] templates::Error),
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// A command's or a plugin's own refusal (a license line webop did not write, a file of
    /// `config/` that is not YAML, a dashboard config it cannot read), worded by it: the engine
    /// knows no command or plugin, so their errors reach it boxed (each converts itself).
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
}

/// Plans `step`: the tool-owned files rendered for the project after it (and those no longer
/// rendered removed), then `command`'s part, then each of `plugins` in turn.
pub fn plan(step: &Step, command: &dyn Scaffold, plugins: &[&dyn Scaffold]) -> Result<Plan, Error> {
    let mut planner = Planner::new(step.root, step.fs, step.force);

    let previous: HashMap<String, String> = match step.before {
        Some(before) => render(step.templates, before, None, Select::ToolOwned)?
            .into_iter()
            .map(|r| (r.path, r.contents))
            .collect(),
        None => HashMap::new(),
    };
    let current = render(step.templates, step.after, None, Select::ToolOwned)?;
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

    command.plan(&mut planner, step)?;
    // Last: the plugins' files (the chart, the dashboards) follow the files as the command
    // leaves them.
    for plugin in plugins {
        plugin.plan(&mut planner, step)?;
    }
    Ok(planner.finish()?)
}
