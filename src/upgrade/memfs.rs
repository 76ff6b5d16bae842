//! A tree in memory, for replaying the scaffold's commands without touching the disk.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::Permissions;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::scaffold::fs::{Entry, FileSystem};

/// Files and directories by absolute path; everything is writable.
#[derive(Debug, Default)]
pub struct MemFs {
    files: RefCell<BTreeMap<PathBuf, Vec<u8>>>,
    dirs: RefCell<BTreeSet<PathBuf>>,
}

impl MemFs {
    /// An empty tree holding only the directory `root`.
    pub fn with_root(root: &Path) -> Self {
        let fs = MemFs::default();
        fs.dirs
            .borrow_mut()
            .extend(root.ancestors().map(Path::to_owned));
        fs
    }

    /// Every file under `root`, by its path relative to it (`/`-separated), with its text.
    pub fn files_under(&self, root: &Path) -> BTreeMap<String, String> {
        self.files
            .borrow()
            .iter()
            .filter_map(|(path, bytes)| {
                let relative = path.strip_prefix(root).ok()?;
                Some((
                    relative.to_string_lossy().replace('\\', "/"),
                    String::from_utf8_lossy(bytes).into_owned(),
                ))
            })
            .collect()
    }
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, path.display().to_string())
}

impl FileSystem for MemFs {
    fn entry(&self, path: &Path) -> io::Result<Entry> {
        if self.files.borrow().contains_key(path) {
            Ok(Entry::File { read_only: false })
        } else if self.dirs.borrow().contains(path) {
            Ok(Entry::Dir { read_only: false })
        } else {
            Ok(Entry::Missing)
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .borrow()
            .get(path)
            .cloned()
            .ok_or_else(|| not_found(path))
    }

    fn permissions(&self, path: &Path) -> io::Result<Permissions> {
        self.read(path).map(|_| Permissions::from_mode(0o644))
    }

    fn create_dir(&self, path: &Path) -> io::Result<()> {
        self.dirs.borrow_mut().insert(path.to_owned());
        Ok(())
    }

    fn write(&self, path: &Path, contents: &[u8], _: Option<&Permissions>) -> io::Result<()> {
        self.files
            .borrow_mut()
            .insert(path.to_owned(), contents.to_vec());
        Ok(())
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.files
            .borrow_mut()
            .remove(path)
            .map(|_| ())
            .ok_or_else(|| not_found(path))
    }

    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        let busy = self.files.borrow().keys().any(|f| f.starts_with(path))
            || self
                .dirs
                .borrow()
                .iter()
                .any(|d| d != path && d.starts_with(path));
        if busy {
            return Err(io::Error::new(
                io::ErrorKind::DirectoryNotEmpty,
                path.display().to_string(),
            ));
        }
        self.dirs.borrow_mut().remove(path);
        Ok(())
    }
}
