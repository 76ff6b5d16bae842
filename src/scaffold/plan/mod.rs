//! A plan: every file a command would touch, what it would do to it, and the new bytes. Planning
//! reads the tree and refuses conflicts; nothing is written until the whole plan is valid.

mod conflict;
mod planner;

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

pub use conflict::Conflict;
pub use planner::Planner;

/// What a command does to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Create,
    Update,
    /// `--force`: a user-owned file, or a tool-owned one the user edited, replaced; its
    /// content is lost, so the report names it.
    Overwrite,
    /// A user-owned file that exists: left alone (`--force` overwrites it).
    Skip,
    /// The file already has the planned bytes.
    Unchanged,
    /// A file the command removes (`delete api`), as webop wrote it.
    Delete,
    /// `--force`: a file the command removes although the user edited it; the report names it.
    DeleteEdited,
}

/// One file of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    pub action: Action,
    /// The bytes the file has after the command.
    pub contents: Vec<u8>,
}

/// Every file a command touches, by path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub changes: BTreeMap<String, Change>,
}

impl Plan {
    /// The changes that write: created and updated files.
    pub fn writes(&self) -> impl Iterator<Item = &Change> {
        self.changes.values().filter(|c| {
            matches!(
                c.action,
                Action::Create | Action::Update | Action::Overwrite
            )
        })
    }

    /// The changes that remove a file.
    pub fn deletions(&self) -> impl Iterator<Item = &Change> {
        self.changes
            .values()
            .filter(|c| matches!(c.action, Action::Delete | Action::DeleteEdited))
    }

    /// The report a command prints, one line per file it writes, removes or leaves because it
    /// is yours (the files it renders and finds as they should be are not named).
    pub fn report(&self) -> String {
        let mut out = String::new();
        for change in self.changes.values() {
            if change.action == Action::Unchanged {
                continue;
            }
            let note = match change.action {
                Action::Skip => " (exists; --force to overwrite)",
                Action::Overwrite => " (its content was yours: replaced because of --force)",
                Action::DeleteEdited => " (you had edited it: removed because of --force)",
                _ => "",
            };
            let _ = writeln!(out, "{} {}{note}", change.action, change.path);
        }
        if out.is_empty() {
            out.push_str("every file is as it should be: nothing to change\n");
        }
        out
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Create => "created",
            Action::Update => "updated",
            Action::Overwrite => "overwritten",
            Action::Skip => "skipped",
            Action::Unchanged => "unchanged",
            Action::Delete | Action::DeleteEdited => "deleted",
        })
    }
}

#[cfg(test)]
mod tests;
