//! Carrying out a plan, all or nothing: each file is written atomically (temporary file, then
//! rename), and if any step fails every step already taken is undone, so the tree is exactly as
//! it was.

use std::fs::Permissions;
use std::path::{Path, PathBuf};

use super::fs::{Entry, FileSystem};
use super::plan::{Action, Plan};

/// A failed apply: what failed, and whether the rollback restored the tree.
#[derive(Debug, thiserror::Error)]
#[error("{failure}{}", rollback_note(.rollback_failures))]
pub struct ApplyError {
    /// The step that failed.
    pub failure: String,
    /// Steps of the rollback that failed too (empty: the tree is as it was).
    pub rollback_failures: Vec<String>,
}

fn rollback_note(failures: &[String]) -> String {
    if failures.is_empty() {
        "; nothing was changed".to_owned()
    } else {
        format!(
            "; rolling back also failed, the tree is left changed: {}",
            failures.join("; ")
        )
    }
}

/// A step taken, and how to undo it.
enum Undo {
    CreateDir(PathBuf),
    RemoveDir(PathBuf),
    RemoveFile(PathBuf),
    Restore(PathBuf, Vec<u8>, Permissions),
}

/// Writes every created and updated file of `plan` under `root` and removes its deleted ones
/// (with the directories they leave empty), or does nothing.
pub fn apply(fs: &dyn FileSystem, root: &Path, plan: &Plan) -> Result<(), ApplyError> {
    let mut journal = Vec::new();
    for change in plan.deletions() {
        if let Err(failure) = delete(fs, root, &root.join(&change.path), &mut journal) {
            return Err(ApplyError {
                failure,
                rollback_failures: rollback(fs, journal),
            });
        }
    }
    for change in plan.writes() {
        let path = root.join(&change.path);
        let step = create_parents(fs, &path, &mut journal).and_then(|()| {
            let keep = match change.action {
                Action::Update | Action::Overwrite => {
                    let old = fs.read(&path).map_err(|e| describe("read", &path, e))?;
                    let permissions = fs
                        .permissions(&path)
                        .map_err(|e| describe("read the permissions of", &path, e))?;
                    journal.push(Undo::Restore(path.clone(), old, permissions.clone()));
                    Some(permissions)
                }
                _ => None,
            };
            fs.write(&path, &change.contents, keep.as_ref())
                .map_err(|e| describe("write", &path, e))?;
            if change.action == Action::Create {
                journal.push(Undo::RemoveFile(path.clone()));
            }
            Ok(())
        });
        if let Err(failure) = step {
            return Err(ApplyError {
                failure,
                rollback_failures: rollback(fs, journal),
            });
        }
    }
    Ok(())
}

/// Removes the file `path`, then each ancestor below `root` that this leaves empty, recording
/// each step.
fn delete(
    fs: &dyn FileSystem,
    root: &Path,
    path: &Path,
    journal: &mut Vec<Undo>,
) -> Result<(), String> {
    let old = fs.read(path).map_err(|e| describe("read", path, e))?;
    let permissions = fs
        .permissions(path)
        .map_err(|e| describe("read the permissions of", path, e))?;
    fs.remove_file(path)
        .map_err(|e| describe("remove", path, e))?;
    journal.push(Undo::Restore(path.to_owned(), old, permissions));
    for dir in path.ancestors().skip(1) {
        if dir == root || !dir.starts_with(root) {
            break;
        }
        match fs.remove_dir(dir) {
            Ok(()) => journal.push(Undo::CreateDir(dir.to_owned())),
            // A directory that still holds something stays, and so do its ancestors.
            Err(e) if e.kind() == std::io::ErrorKind::DirectoryNotEmpty => break,
            Err(e) => return Err(describe("remove the directory", dir, e)),
        }
    }
    Ok(())
}

/// Creates the missing ancestors of `path`, outermost first, recording each.
fn create_parents(fs: &dyn FileSystem, path: &Path, journal: &mut Vec<Undo>) -> Result<(), String> {
    let mut missing = Vec::new();
    for ancestor in path.ancestors().skip(1) {
        match fs.entry(ancestor) {
            Ok(Entry::Missing) => missing.push(ancestor.to_owned()),
            Ok(_) => break,
            Err(e) => return Err(describe("inspect", ancestor, e)),
        }
    }
    for dir in missing.into_iter().rev() {
        fs.create_dir(&dir)
            .map_err(|e| describe("create the directory", &dir, e))?;
        journal.push(Undo::RemoveDir(dir));
    }
    Ok(())
}

/// Undoes `journal`, newest step first; returns the steps that could not be undone.
fn rollback(fs: &dyn FileSystem, journal: Vec<Undo>) -> Vec<String> {
    let mut failures = Vec::new();
    for undo in journal.into_iter().rev() {
        let result = match &undo {
            Undo::CreateDir(dir) => fs
                .create_dir(dir)
                .map_err(|e| describe("create the directory", dir, e)),
            Undo::RemoveDir(dir) => fs.remove_dir(dir).map_err(|e| describe("remove", dir, e)),
            Undo::RemoveFile(file) => fs
                .remove_file(file)
                .map_err(|e| describe("remove", file, e)),
            Undo::Restore(file, bytes, permissions) => fs
                .write(file, bytes, Some(permissions))
                .map_err(|e| describe("restore", file, e)),
        };
        if let Err(failure) = result {
            failures.push(failure);
        }
    }
    failures
}

fn describe(what: &str, path: &Path, error: std::io::Error) -> String {
    format!("cannot {what} {}: {error}", path.display())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::scaffold::fs::RealFs;
    use crate::scaffold::plan::Planner;
    use std::cell::Cell;
    use std::collections::BTreeMap;
    use std::io;
    use std::os::unix::fs::PermissionsExt;

    /// The real filesystem, failing the first write, removal or directory creation after
    /// `budget` of them succeeded; everything after that failure (the rollback) goes through.
    pub(crate) struct FailAfter {
        budget: Cell<Option<usize>>,
    }

    impl FailAfter {
        pub(crate) fn new(budget: usize) -> Self {
            FailAfter {
                budget: Cell::new(Some(budget)),
            }
        }

        fn spend(&self) -> io::Result<()> {
            match self.budget.get() {
                Some(0) => {
                    self.budget.set(None);
                    Err(io::Error::other("injected failure"))
                }
                Some(n) => {
                    self.budget.set(Some(n - 1));
                    Ok(())
                }
                None => Ok(()),
            }
        }
    }

    impl FileSystem for FailAfter {
        fn entry(&self, path: &Path) -> io::Result<Entry> {
            RealFs.entry(path)
        }
        fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
            RealFs.read(path)
        }
        fn permissions(&self, path: &Path) -> io::Result<Permissions> {
            RealFs.permissions(path)
        }
        fn create_dir(&self, path: &Path) -> io::Result<()> {
            self.spend()?;
            RealFs.create_dir(path)
        }
        fn write(&self, path: &Path, bytes: &[u8], p: Option<&Permissions>) -> io::Result<()> {
            self.spend()?;
            RealFs.write(path, bytes, p)
        }
        fn remove_file(&self, path: &Path) -> io::Result<()> {
            self.spend()?;
            RealFs.remove_file(path)
        }
        fn remove_dir(&self, path: &Path) -> io::Result<()> {
            self.spend()?;
            RealFs.remove_dir(path)
        }
    }

    /// Every path under `root` with its mode and, for files, its bytes.
    pub(crate) fn snapshot(root: &Path) -> BTreeMap<PathBuf, (u32, Option<Vec<u8>>)> {
        let mut out = BTreeMap::new();
        let mut stack = vec![root.to_owned()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let meta = std::fs::metadata(&path).unwrap();
                let mode = meta.permissions().mode();
                if meta.is_dir() {
                    stack.push(path.clone());
                    out.insert(path, (mode, None));
                } else {
                    out.insert(path.clone(), (mode, Some(std::fs::read(&path).unwrap())));
                }
            }
        }
        out
    }

    fn example_plan(root: &Path) -> Plan {
        let mut planner = Planner::new(root, &RealFs, true);
        planner.user_owned("a/b/new.txt", "new".into()).unwrap();
        planner.user_owned("a/c.txt", "new c".into()).unwrap();
        planner
            .user_owned("existing.txt", "changed".into())
            .unwrap();
        planner.user_owned("z/deep/er/file", "z".into()).unwrap();
        planner.finish().unwrap()
    }

    fn example_tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        let existing = dir.path().join("existing.txt");
        std::fs::write(&existing, "original").unwrap();
        std::fs::set_permissions(&existing, Permissions::from_mode(0o640)).unwrap();
        dir
    }

    #[test]
    fn applies_every_change() {
        let dir = example_tree();
        apply(&RealFs, dir.path(), &example_plan(dir.path())).unwrap();
        let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
        assert_eq!(read("a/b/new.txt"), "new");
        assert_eq!(read("existing.txt"), "changed");
        assert_eq!(read("z/deep/er/file"), "z");
        let mode = std::fs::metadata(dir.path().join("existing.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "an updated file keeps its permissions");
    }

    #[test]
    fn a_failure_at_any_step_leaves_the_tree_as_it_was() {
        let dir = example_tree();
        let plan = example_plan(dir.path());
        let before = snapshot(dir.path());
        // 4 files and 4 directories to write: 8 steps; failing at any of them rolls back.
        for budget in 0..8 {
            let fs = FailAfter::new(budget);
            let err = apply(&fs, dir.path(), &plan).unwrap_err();
            assert!(err.to_string().contains("injected failure"), "{err}");
            assert!(err.rollback_failures.is_empty(), "{err}");
            assert_eq!(
                snapshot(dir.path()),
                before,
                "after failing at step {budget}"
            );
        }
        let fs = FailAfter::new(8);
        apply(&fs, dir.path(), &plan).unwrap();
        assert_ne!(snapshot(dir.path()), before);
    }
}
