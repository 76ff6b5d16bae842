//! The planner: decides, file by file and against the tree on disk, what a command does to each
//! file, refusing edits it must not overwrite before anything is written.

use std::path::{Path, PathBuf};

use super::{Action, Change, Conflict, Plan};
use crate::scaffold::fs::{Entry, FileSystem};
use crate::scaffold::{markers, rustfmt};

/// Builds a [`Plan`] file by file, reading the tree through a [`FileSystem`].
pub struct Planner<'a> {
    root: PathBuf,
    fs: &'a dyn FileSystem,
    force: bool,
    plan: Plan,
}

impl<'a> Planner<'a> {
    /// A planner for the project at `root`; `force` overwrites user-owned and edited files.
    pub fn new(root: &Path, fs: &'a dyn FileSystem, force: bool) -> Self {
        Planner {
            root: root.to_owned(),
            fs,
            force,
            plan: Plan::default(),
        }
    }

    /// A tool-owned file. `previous` is what webop generated for it before this command (from
    /// the PROJECT file as it was); a file on disk that differs from it was edited by the user.
    pub fn tool_owned(
        &mut self,
        path: &str,
        contents: String,
        previous: Option<&str>,
    ) -> Result<(), Conflict> {
        let action = match self.read(path)? {
            None => Action::Create,
            Some(disk) if disk == contents.as_bytes() => Action::Unchanged,
            Some(disk) if previous.is_some_and(|p| rustfmt::same(path, &disk, p.as_bytes())) => {
                Action::Update
            }
            Some(_) if self.force => Action::Overwrite,
            Some(_) => return Err(Conflict::Edited { path: path.into() }),
        };
        self.put(path, action, contents.into_bytes());
        Ok(())
    }

    /// A user-owned file a command rewrites (`edit`): `previous` is what webop wrote there for the
    /// project as it was; a file that differs from both it and `contents` was edited by the user
    /// and is only overwritten with `--force`. A missing file is written.
    pub fn rewrite(
        &mut self,
        path: &str,
        contents: String,
        previous: &str,
        reason: &str,
    ) -> Result<(), Conflict> {
        let action = match self.read(path)? {
            None => Action::Create,
            Some(disk) if disk == contents.as_bytes() => Action::Unchanged,
            Some(disk) if rustfmt::same(path, &disk, previous.as_bytes()) => Action::Update,
            Some(_) if self.force => Action::Overwrite,
            Some(_) => {
                return Err(Conflict::EditedToRewrite {
                    path: path.into(),
                    reason: reason.into(),
                });
            }
        };
        self.put(path, action, contents.into_bytes());
        Ok(())
    }

    /// A file regenerated from the code (`webop manifests`): always replaced.
    pub fn generated(&mut self, path: &str, contents: String) -> Result<(), Conflict> {
        let action = match self.read(path)? {
            None => Action::Create,
            Some(disk) if disk == contents.as_bytes() => Action::Unchanged,
            Some(_) => Action::Update,
        };
        self.put(path, action, contents.into_bytes());
        Ok(())
    }

    /// A user-owned file: written if missing, else skipped (or overwritten with `--force`).
    pub fn user_owned(&mut self, path: &str, contents: String) -> Result<(), Conflict> {
        let (action, bytes) = match self.read(path)? {
            None => (Action::Create, contents.into_bytes()),
            Some(disk) if disk == contents.as_bytes() => (Action::Unchanged, disk),
            Some(_) if self.force => (Action::Overwrite, contents.into_bytes()),
            Some(disk) => (Action::Skip, disk),
        };
        self.put(path, action, bytes);
        Ok(())
    }

    /// A user-owned file the command writes only when it is missing, even with `--force`: one
    /// that other kinds share (a version's module, the samples' kustomization), which the
    /// command extends at its markers instead.
    pub fn user_owned_kept(&mut self, path: &str, contents: String) -> Result<(), Conflict> {
        // Written already by this plan (an earlier kind of the same command) and extended since.
        if self.plan.changes.contains_key(path) {
            return Ok(());
        }
        let (action, bytes) = match self.read(path)? {
            None => (Action::Create, contents.into_bytes()),
            // Not the command's to rewrite, so not "skipped": it is extended at its markers.
            Some(disk) => (Action::Unchanged, disk),
        };
        self.put(path, action, bytes);
        Ok(())
    }

    /// A user-owned file the command must write (an imported kind's types): a different file
    /// there is a conflict unless `--force`.
    pub fn user_owned_new(&mut self, path: &str, contents: String) -> Result<(), Conflict> {
        let action = match self.read(path)? {
            None => Action::Create,
            Some(disk) if disk == contents.as_bytes() => Action::Unchanged,
            Some(_) if self.force => Action::Overwrite,
            Some(_) => return Err(Conflict::Exists { path: path.into() }),
        };
        self.put(path, action, contents.into_bytes());
        Ok(())
    }

    /// A file the command removes. `written` is what webop wrote there; a file that differs (once
    /// this plan's other changes to it are made) was edited by the user and is only removed with
    /// `--force`. `None`: removed whatever it holds
    /// (a file regenerated from the code). A missing file is no change.
    pub fn remove(&mut self, path: &str, written: Option<&str>) -> Result<(), Conflict> {
        // What the file holds once this plan's other changes to it are made.
        let planned = self.plan.changes.get(path).map(|c| c.contents.clone());
        let Some(current) = planned.map_or_else(|| self.read(path), |c| Ok(Some(c)))? else {
            return Ok(());
        };
        let action = match written {
            Some(written) if !rustfmt::same(path, &current, written.as_bytes()) => {
                if !self.force {
                    return Err(Conflict::EditedToDelete { path: path.into() });
                }
                Action::DeleteEdited
            }
            _ => Action::Delete,
        };
        self.put(path, action, Vec::new());
        Ok(())
    }

    /// Removes `lines` (those `insert` added) from `path`, wherever they stand; a line the user
    /// removed or commented out is left as it is. A missing file is no change.
    pub fn remove_lines(&mut self, path: &str, lines: &[String]) -> Result<(), Conflict> {
        let planned = self
            .plan
            .changes
            .get(path)
            .map(|c| (c.action, c.contents.clone()));
        let (action, current) = match planned {
            Some(planned) => planned,
            None => match self.read(path)? {
                Some(disk) => (Action::Unchanged, disk),
                None => return Ok(()),
            },
        };
        if matches!(action, Action::Delete | Action::DeleteEdited) {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&current);
        let removed = markers::remove(&text, lines);
        let action = match action {
            _ if removed.as_bytes() != current => Action::Update,
            unchanged => unchanged,
        };
        self.put(path, action, removed.into_bytes());
        Ok(())
    }

    /// Inserts `lines` above the `+webop:scaffold:<marker>` line of `path`: into the planned
    /// contents if this plan writes the file, else into the file on disk.
    pub fn insert(
        &mut self,
        path: &str,
        marker: &str,
        lines: &[String],
        order: markers::Order,
    ) -> Result<(), Conflict> {
        let planned = self
            .plan
            .changes
            .get(path)
            .map(|c| (c.action, c.contents.clone()));
        let (action, current) = match planned {
            Some(planned) => planned,
            None => match self.read(path)? {
                Some(disk) => (Action::Unchanged, disk),
                None => {
                    return Err(Conflict::MissingFile {
                        path: path.into(),
                        marker: marker.into(),
                    });
                }
            },
        };
        let text = String::from_utf8_lossy(&current);
        let inserted = markers::insert_in_order(&text, marker, lines, order).ok_or_else(|| {
            Conflict::MissingMarker {
                path: path.into(),
                marker: marker.into(),
            }
        })?;
        let action = match action {
            Action::Create => Action::Create,
            _ if inserted.as_bytes() != current => Action::Update,
            unchanged => unchanged,
        };
        self.put(path, action, inserted.into_bytes());
        Ok(())
    }

    /// Rewrites `path` with `edit`: its planned contents if this plan writes it, else the file
    /// on disk (which must exist: `purpose` says why webop edits it). `edit` gets the text and
    /// returns the new text, or why it cannot.
    pub fn edit(
        &mut self,
        path: &str,
        purpose: &str,
        edit: impl FnOnce(&str) -> Result<String, Conflict>,
    ) -> Result<(), Conflict> {
        let planned = self
            .plan
            .changes
            .get(path)
            .map(|c| (c.action, c.contents.clone()));
        let (action, current) = match planned {
            Some(planned) => planned,
            None => match self.read(path)? {
                Some(disk) => (Action::Unchanged, disk),
                None => {
                    return Err(Conflict::MissingToEdit {
                        path: path.into(),
                        purpose: purpose.into(),
                    });
                }
            },
        };
        let edited = edit(&String::from_utf8_lossy(&current))?;
        let action = match action {
            Action::Create | Action::Overwrite => action,
            _ if edited.as_bytes() != current => Action::Update,
            unchanged => unchanged,
        };
        self.put(path, action, edited.into_bytes());
        Ok(())
    }

    /// The finished plan, once every file it writes is known to be writable.
    /// What `path` holds before the command (`None`: no file).
    pub fn before(&self, path: &str) -> Result<Option<Vec<u8>>, Conflict> {
        self.read(path)
    }

    /// What `path` holds once the changes planned so far are made (`None`: no file).
    pub fn after(&self, path: &str) -> Result<Option<Vec<u8>>, Conflict> {
        match self.plan.changes.get(path) {
            Some(change) if matches!(change.action, Action::Delete | Action::DeleteEdited) => {
                Ok(None)
            }
            Some(change) => Ok(Some(change.contents.clone())),
            None => self.read(path),
        }
    }

    pub fn finish(self) -> Result<Plan, Conflict> {
        for change in self.plan.writes().chain(self.plan.deletions()) {
            self.check_writable(&change.path)?;
        }
        Ok(self.plan)
    }

    fn put(&mut self, path: &str, mut action: Action, mut contents: Vec<u8>) {
        if matches!(action, Action::Create | Action::Update | Action::Overwrite) {
            let disk = self.read(path).ok().flatten();
            contents = laid_out(path, contents, disk.as_deref());
            if action == Action::Update && disk.is_some_and(|disk| disk == contents) {
                action = Action::Unchanged;
            }
        }
        let change = Change {
            path: path.to_owned(),
            action,
            contents,
        };
        self.plan.changes.insert(path.to_owned(), change);
    }

    /// The text of the file at `path` on disk, `None` when missing.
    pub fn read_text(&self, path: &str) -> Result<Option<String>, Conflict> {
        Ok(self
            .read(path)?
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, Conflict> {
        let full = self.root.join(path);
        let io = |source| Conflict::Io {
            path: path.into(),
            source,
        };
        match self.fs.entry(&full).map_err(io)? {
            Entry::Missing => Ok(None),
            Entry::File { .. } => self.fs.read(&full).map(Some).map_err(io),
            Entry::Dir { .. } | Entry::Other => Err(Conflict::InTheWay {
                path: path.into(),
                wanted: "file",
            }),
        }
    }

    /// The file must not be read-only, and its nearest existing ancestor must be a writable
    /// directory. (Tests run as root, who may write anything: the permission bits decide.)
    fn check_writable(&self, path: &str) -> Result<(), Conflict> {
        let io = |source| Conflict::Io {
            path: path.into(),
            source,
        };
        let full = self.root.join(path);
        if let Entry::File { read_only: true } = self.fs.entry(&full).map_err(io)? {
            return Err(Conflict::ReadOnly { path: path.into() });
        }
        for ancestor in full.ancestors().skip(1) {
            // Relative to the project root; the root itself (or above it) by its full path.
            let shown = || match ancestor.strip_prefix(&self.root) {
                Ok(relative) if !relative.as_os_str().is_empty() => relative.display().to_string(),
                _ => ancestor.display().to_string(),
            };
            match self.fs.entry(ancestor).map_err(io)? {
                Entry::Missing => continue,
                Entry::Dir { read_only: false } => return Ok(()),
                Entry::Dir { read_only: true } => {
                    return Err(Conflict::ReadOnly { path: shown() });
                }
                Entry::File { .. } | Entry::Other => {
                    return Err(Conflict::InTheWay {
                        path: shown(),
                        wanted: "directory",
                    });
                }
            }
        }
        Ok(())
    }
}

/// `contents` of a Rust file laid out by rustfmt, as the templates are: the lines a command
/// inserts or merges leave it as `cargo fmt` would. A file the user keeps in a layout of their
/// own (`disk`, what it holds now, is not rustfmt's) is not reformatted.
fn laid_out(path: &str, contents: Vec<u8>, disk: Option<&[u8]>) -> Vec<u8> {
    if !rustfmt::is_rust(path) {
        return contents;
    }
    let text = match String::from_utf8(contents) {
        Ok(text) => text,
        Err(not_text) => return not_text.into_bytes(),
    };
    let user_layout =
        disk.is_some_and(|disk| !rustfmt::is_formatted(&String::from_utf8_lossy(disk)));
    if user_layout {
        text.into_bytes()
    } else {
        rustfmt::format(&text).into_bytes()
    }
}
