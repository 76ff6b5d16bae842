//! Every scaffold command keeps the lock: once its plan is made, the lock of the project after
//! it joins the plan, so the lock is written with the files, all or nothing. The bases an older
//! lock kept in `.webop-scaffold/base/` go with it: the template id replaces them.

use std::path::Path;

use super::lock::{self, Lock};
use super::replay;
use crate::project::Project;
use crate::scaffold::fs::{Entry, FileSystem};
use crate::scaffold::{Action, Change, Plan, Templates};
use crate::scaffolds::edit::{Licensed, license};
use crate::scaffolds::{Command, Request};

/// What recording the lock adds to a plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Files of `.webop-scaffold/` the plan now creates, updates or removes (the lock, and the
    /// bases an older lock kept).
    pub changed: usize,
}

/// Why the lock could not be recorded. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Lock(#[from] lock::Error),
    #[error(transparent)]
    Replay(#[from] replay::Error),
}

/// Adds the lock of `request.after` to `plan`. `init` starts the lock; any other command keeps
/// the lock the project has, and leaves a project without one (scaffolded before webop kept
/// locks) without: `webop upgrade --adopt` starts it.
pub fn record(
    fs: &dyn FileSystem,
    templates: &Templates,
    request: &Request,
    plan: &mut Plan,
) -> Result<Recorded, Error> {
    let before = Lock::read(fs, request.root)?;
    // The license is the one input of the scaffold PROJECT does not hold: `init` gives it,
    // `edit --license/--owner` changes it in the files, every other command keeps the lock's.
    let license = match (request.command, &before) {
        (Command::Init(init), _) => (init.license == "apache2").then(|| init.owner.clone()),
        (_, None) => return Ok(Recorded::default()),
        (Command::Edit { .. }, _) => {
            license_after(fs, request.root, plan, &request.after.project_name)
        }
        (_, Some(lock)) => lock.licensed(),
    };
    add(
        fs,
        templates,
        request.root,
        request.after,
        &license,
        before.as_ref(),
        plan,
    )
}

/// Renders, and discards, what [`record`] will render for a command that keeps `project` and
/// its license as they are (`manifests`): run while something else waits (a build), it leaves
/// rustfmt's layout of every Rust file in its cache, so that the record itself runs no rustfmt.
/// A project without a lock, or one the replay cannot render, is left to [`record`].
pub fn render_ahead(fs: &dyn FileSystem, templates: &Templates, root: &Path, project: &Project) {
    if let Ok(Some(lock)) = Lock::read(fs, root) {
        let _ = replay::pristine(templates, project, &lock.licensed());
    }
}

/// Adds to `plan` the lock of `project` rendered with `templates` and `license`, replacing
/// `before` (and the bases it kept).
pub fn add(
    fs: &dyn FileSystem,
    templates: &Templates,
    root: &Path,
    project: &Project,
    license: &Licensed,
    before: Option<&Lock>,
    plan: &mut Plan,
) -> Result<Recorded, Error> {
    let rendered = replay::pristine(templates, project, license)?;
    let text = Lock::new(&rendered, license, templates.id()).text();
    let mut recorded = Recorded::default();
    let action = match read(fs, root, lock::FILE)? {
        None => Some(Action::Create),
        Some(disk) if disk == text.as_bytes() => None,
        Some(_) => Some(Action::Update),
    };
    if let Some(action) = action {
        put(plan, lock::FILE, action, text.into_bytes());
        recorded.changed += 1;
    }
    for (path, locked) in before.map(|b| &b.files).into_iter().flatten() {
        let base = lock::base_path(path);
        if locked.owner == lock::Owner::User && read(fs, root, &base)?.is_some() {
            put(plan, &base, Action::Delete, Vec::new());
            recorded.changed += 1;
        }
    }
    Ok(recorded)
}

/// The license the project's files declare once `plan` is carried out, as `edit --license`
/// reads it: Apache-2.0 when the root Cargo.toml has init's license line, with the owner of the
/// README's notice (init's default without one).
fn license_after(fs: &dyn FileSystem, root: &Path, plan: &Plan, project_name: &str) -> Licensed {
    let text = |path: &str| -> String {
        let bytes = match plan.changes.get(path) {
            Some(change) => Some(change.contents.clone()),
            None => read(fs, root, path).ok().flatten(),
        };
        String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned()
    };
    if !license::is_apache2(&text("Cargo.toml")) {
        return None;
    }
    Some(
        license::owner(&text("README.md"))
            .map_or_else(|| format!("The {project_name} Authors"), str::to_owned),
    )
}

fn read(fs: &dyn FileSystem, root: &Path, path: &str) -> Result<Option<Vec<u8>>, lock::Error> {
    let full = root.join(path);
    match fs.entry(&full).map_err(lock::Error::Io)? {
        Entry::File { .. } => fs.read(&full).map(Some).map_err(lock::Error::Io),
        _ => Ok(None),
    }
}

fn put(plan: &mut Plan, path: &str, action: Action, contents: Vec<u8>) {
    let change = Change {
        path: path.to_owned(),
        action,
        contents,
    };
    plan.changes.insert(path.to_owned(), change);
}
