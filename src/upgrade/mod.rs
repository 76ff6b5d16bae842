//! `webop upgrade`: moves a project scaffolded by an older webop to this webop's templates, file
//! by file, with a three-way merge whose base is what the older webop rendered. Nothing is
//! downloaded: every scaffold command records the template set and the hash of each file it
//! rendered in the project's scaffold lock ([`lock`], kept by [`record`]); webop carries the
//! template sets of earlier releases ([`releases`]); and the render of both sides is the same
//! replay of the commands ([`replay`]), the base's checked against the lock ([`bases`]). See
//! `docs/upgrade.md`.

pub mod bases;
pub mod local_source;
pub mod lock;
pub mod memfs;
pub mod merge;
pub mod record;
pub mod releases;
pub mod replay;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::project::Project;
use crate::scaffold::fs::{Entry, FileSystem};
use crate::scaffold::{Action, Change, Plan, Templates};
use lock::{Lock, Owner};
use merge::{Old, Outcome};

/// This webop's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How to upgrade.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Re-render tool-owned files the user edited.
    pub force: bool,
    /// The project has no lock (scaffolded before webop kept one): take its files as they are
    /// for what this webop renders, re-render the tool-owned ones and start the lock.
    pub adopt: bool,
    /// The templates that scaffolded the project, when this webop does not carry them.
    pub base_templates: Option<PathBuf>,
}

/// Why an upgrade cannot be made. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "this project has no scaffold lock ({}): it was scaffolded by webop {} or another \
         webop from before the lock, so what that webop rendered is unknown and there is no base \
         to merge from. Run `webop upgrade --adopt` to re-render the tool-owned files, keep \
         your files as they are and start the lock (later upgrades then merge); see \
         docs/upgrade.md for carrying template changes of the past by hand",
        lock::FILE,
        .cli_version.as_deref().unwrap_or("(unknown)")
    )]
    NoLock { cli_version: Option<String> },
    #[error(
        "--adopt: this project already has a scaffold lock ({}); run `webop upgrade` without it",
        lock::FILE
    )]
    HasLock,
    #[error(
        "these files carry webop's DO NOT EDIT header and were edited since webop {webop} \
         rendered them, so upgrading would lose the edits: {}; move the changes elsewhere and \
         run the command again, or pass --force to re-render them (nothing was changed)",
        .paths.join(", ")
    )]
    EditedToolOwned { webop: String, paths: Vec<String> },
    #[error(
        "--adopt: these files carry webop's DO NOT EDIT header and differ from what this webop \
         renders: {}; without a lock, an older webop's render cannot be told from your edits, \
         so re-rendering them could lose edits; `webop upgrade --adopt --force --dry-run` shows \
         what re-rendering changes, `--adopt --force` re-renders them (nothing was changed)",
        .paths.join(", ")
    )]
    AdoptDiffers { paths: Vec<String> },
    #[error(transparent)]
    Lock(#[from] lock::Error),
    #[error(transparent)]
    Bases(#[from] bases::Error),
    #[error(transparent)]
    Replay(#[from] replay::Error),
    #[error(transparent)]
    Record(#[from] record::Error),
}

/// The files of an upgrade, by what happened to them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Re-rendered: tool-owned files, and user-owned ones the user had not changed.
    pub updated: Vec<String>,
    /// Tool-owned files the user had edited, re-rendered because of `--force`.
    pub overwritten: Vec<String>,
    pub merged: Vec<String>,
    pub conflicted: Vec<String>,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// No longer rendered, but edited by the user: left in place.
    pub kept_edited: Vec<String>,
    /// Deleted by the user, changed by the new templates: left deleted.
    pub kept_deleted: Vec<String>,
    pub unchanged: usize,
}

/// A planned upgrade.
#[derive(Clone, Debug)]
pub struct Upgrade {
    /// The webop that rendered the project (`None`: adopted, no lock before).
    pub from: Option<String>,
    pub plan: Plan,
    pub summary: Summary,
}

/// Plans the upgrade of the project at `root` (whose PROJECT is `project`) to `templates`.
pub fn plan(
    fs: &dyn FileSystem,
    templates: &Templates,
    root: &Path,
    project: &Project,
    options: Options,
) -> Result<Upgrade, Error> {
    let lock = Lock::read(fs, root)?;
    match (&lock, options.adopt) {
        (Some(_), true) => return Err(Error::HasLock),
        (None, false) => {
            return Err(Error::NoLock {
                cli_version: project.cli_version.clone(),
            });
        }
        _ => {}
    }
    let mut after = project.clone();
    after.cli_version = Some(VERSION.to_owned());
    let license = match &lock {
        Some(lock) => lock.licensed(),
        None => current_license(fs, root, project),
    };
    let new = replay::pristine(templates, &after, &license)?;

    let read = |path: &str| -> Result<Option<String>, Error> {
        let full = root.join(path);
        match fs.entry(&full).map_err(lock::Error::Io)? {
            Entry::File { .. } => Ok(Some(
                String::from_utf8_lossy(&fs.read(&full).map_err(lock::Error::Io)?).into_owned(),
            )),
            _ => Ok(None),
        }
    };
    let olds: BTreeMap<String, Old> = match &lock {
        Some(lock) => bases::of_lock(
            fs,
            root,
            lock,
            project,
            templates,
            options.base_templates.as_deref(),
        )?,
        // Adopting: this webop's render stands for the old one, so user-owned files are kept
        // as they are, and a tool-owned file that differs from it is re-rendered only with
        // --force (an older render and an edit look alike).
        None => new
            .iter()
            .map(|(path, text)| {
                let base = (lock::Locked::owner_of(text) == Owner::User).then(|| text.clone());
                let sha256 = lock::sha256(text.as_bytes());
                (path.clone(), Old { sha256, base })
            })
            .collect(),
    };

    let mut plan = Plan::default();
    let mut summary = Summary::default();
    let mut edited = Vec::new();
    let paths: BTreeSet<&String> = olds.keys().chain(new.keys()).collect();
    for path in paths {
        let disk = read(path)?;
        let outcome = merge::decide(
            olds.get(path),
            disk.as_deref(),
            new.get(path).map(String::as_str),
            options.force,
            VERSION,
        );
        let path = path.clone();
        let exists = disk.is_some();
        let (list, write) = match outcome {
            Outcome::Unchanged => {
                summary.unchanged += 1;
                continue;
            }
            Outcome::Updated { text, forced } => {
                let list = if forced {
                    &mut summary.overwritten
                } else {
                    &mut summary.updated
                };
                (list, Some(text))
            }
            Outcome::Merged(text) => (&mut summary.merged, Some(text)),
            Outcome::Conflicted(text) => (&mut summary.conflicted, Some(text)),
            Outcome::Added(text) => (&mut summary.added, Some(text)),
            Outcome::Removed => (&mut summary.removed, None),
            Outcome::KeptEdited => {
                summary.kept_edited.push(path);
                continue;
            }
            Outcome::KeptDeleted => {
                summary.kept_deleted.push(path);
                continue;
            }
            Outcome::EditedToolOwned => {
                edited.push(path);
                continue;
            }
        };
        list.push(path.clone());
        let change = match write {
            Some(text) => Change {
                action: if exists {
                    Action::Update
                } else {
                    Action::Create
                },
                path: path.clone(),
                contents: text.into_bytes(),
            },
            None => Change {
                action: Action::Delete,
                path: path.clone(),
                contents: Vec::new(),
            },
        };
        plan.changes.insert(path, change);
    }
    if !edited.is_empty() {
        return Err(match lock {
            Some(lock) => Error::EditedToolOwned {
                webop: lock.webop,
                paths: edited,
            },
            None => Error::AdoptDiffers { paths: edited },
        });
    }
    if let Some(config) = read(local_source::FILE)?
        && let Some(text) = local_source::upgrade_patches(&config)
    {
        summary.updated.push(local_source::FILE.to_owned());
        let change = Change {
            action: Action::Update,
            path: local_source::FILE.to_owned(),
            contents: text.into_bytes(),
        };
        plan.changes.insert(local_source::FILE.to_owned(), change);
    }
    record::add(
        fs,
        templates,
        root,
        &after,
        &license,
        lock.as_ref(),
        &mut plan,
    )?;
    Ok(Upgrade {
        from: lock.map(|l| l.webop),
        plan,
        summary,
    })
}

/// The license the files of a project without a lock declare (as `edit --license` reads it).
fn current_license(
    fs: &dyn FileSystem,
    root: &Path,
    project: &Project,
) -> crate::scaffolds::edit::Licensed {
    let text = |path: &str| {
        fs.read(&root.join(path))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    };
    use crate::scaffolds::edit::license;
    license::is_apache2(&text("Cargo.toml")).then(|| {
        license::owner(&text("README.md")).map_or_else(
            || format!("The {} Authors", project.project_name),
            str::to_owned,
        )
    })
}

/// Whether the version `a` is newer than `b` (`major.minor.patch`, a pre-release such as
/// `-alpha.1` older than its release).
pub fn newer(a: &str, b: &str) -> bool {
    fn key(version: &str) -> (Vec<u64>, bool, String) {
        let (release, pre) = version.split_once('-').unwrap_or((version, ""));
        let numbers = release.split('.').map(|n| n.parse().unwrap_or(0)).collect();
        (numbers, pre.is_empty(), pre.to_owned())
    }
    key(a) > key(b)
}

impl Upgrade {
    /// The summary an upgrade prints.
    pub fn report(&self) -> String {
        let s = &self.summary;
        let mut out = String::new();
        let from = self.from.as_deref().unwrap_or("(no lock: adopted)");
        let _ = writeln!(out, "webop upgrade: from webop {from} to webop {VERSION}");
        let sections: [(&str, &[String]); 8] = [
            (
                "updated (re-rendered: you had not changed them)",
                &s.updated,
            ),
            (
                "overwritten (your edits of DO NOT EDIT files: --force)",
                &s.overwritten,
            ),
            (
                "merged cleanly (your edits and the new templates)",
                &s.merged,
            ),
            ("conflicted (resolve the <<<<<<< markers)", &s.conflicted),
            ("added", &s.added),
            ("removed (no longer rendered, unchanged)", &s.removed),
            (
                "kept (no longer rendered, but you edited them)",
                &s.kept_edited,
            ),
            (
                "left deleted (you deleted them; the templates changed them)",
                &s.kept_deleted,
            ),
        ];
        for (index, (title, paths)) in sections.into_iter().enumerate() {
            // The five counts always; the exceptional lists only when they name a file.
            let exceptional = matches!(index, 1 | 6 | 7);
            if exceptional && paths.is_empty() {
                continue;
            }
            let _ = writeln!(out, "{title}: {}", paths.len());
            for path in paths {
                let _ = writeln!(out, "  {path}");
            }
        }
        let _ = writeln!(out, "unchanged: {}", s.unchanged);
        out
    }

    /// The unified diff of every project file the upgrade changes (not the lock's own files),
    /// against the tree at `root`.
    pub fn diff(&self, fs: &dyn FileSystem, root: &Path) -> String {
        let mut out = String::new();
        for change in self.plan.changes.values() {
            if change.path.starts_with(&format!("{}/", lock::DIR)) {
                continue;
            }
            let before = fs
                .read(&root.join(&change.path))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let after = String::from_utf8_lossy(&change.contents);
            let patch = diffy::DiffOptions::new()
                .set_original_filename(format!("a/{}", change.path))
                .set_modified_filename(format!("b/{}", change.path))
                .create_patch(&before, &after)
                .to_string();
            out.push_str(&patch);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_number_then_pre_release() {
        assert!(newer("0.2.0", "0.1.9"));
        assert!(newer("0.10.0", "0.9.0"));
        assert!(newer("1.0.0", "1.0.0-alpha.1"));
        assert!(!newer("0.1.0", "0.1.0"));
        assert!(!newer("0.1.0-rc.1", "0.1.0"));
    }
}
