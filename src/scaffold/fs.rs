//! The few filesystem operations planning and applying need, behind a trait so that tests can
//! make any step fail and check that nothing is left behind.

use std::fs::{self, Permissions};
use std::io;
use std::path::Path;

/// What is at a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Missing,
    /// A file; `read_only` when it has no write permission bit at all.
    File {
        read_only: bool,
    },
    Dir {
        read_only: bool,
    },
    /// Anything else (a socket, a dangling symlink ...).
    Other,
}

/// Filesystem operations of the scaffold engine. Paths are absolute.
pub trait FileSystem {
    /// What is at `path` (following symlinks).
    fn entry(&self, path: &Path) -> io::Result<Entry>;
    /// The bytes of the file at `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// The permissions of the file at `path`.
    fn permissions(&self, path: &Path) -> io::Result<Permissions>;
    /// Creates the directory `path` (its parent exists).
    fn create_dir(&self, path: &Path) -> io::Result<()>;
    /// Replaces or creates the file at `path` atomically (write a temporary file, then rename),
    /// giving it `permissions` if set.
    fn write(
        &self,
        path: &Path,
        contents: &[u8],
        permissions: Option<&Permissions>,
    ) -> io::Result<()>;
    /// Removes the file at `path`.
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    /// Removes the empty directory at `path`.
    fn remove_dir(&self, path: &Path) -> io::Result<()>;
}

/// The real filesystem.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl FileSystem for RealFs {
    fn entry(&self, path: &Path) -> io::Result<Entry> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_file() => Ok(Entry::File {
                read_only: meta.permissions().readonly(),
            }),
            Ok(meta) if meta.is_dir() => Ok(Entry::Dir {
                read_only: meta.permissions().readonly(),
            }),
            Ok(_) => Ok(Entry::Other),
            // A file where a directory of `path` should be: nothing can be at `path`.
            Err(e) if e.kind() == io::ErrorKind::NotADirectory => Ok(Entry::Missing),
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::symlink_metadata(path) {
                Ok(_) => Ok(Entry::Other),
                Err(_) => Ok(Entry::Missing),
            },
            Err(e) => Err(e),
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn permissions(&self, path: &Path) -> io::Result<Permissions> {
        Ok(fs::metadata(path)?.permissions())
    }

    fn create_dir(&self, path: &Path) -> io::Result<()> {
        fs::create_dir(path)
    }

    fn write(
        &self,
        path: &Path,
        contents: &[u8],
        permissions: Option<&Permissions>,
    ) -> io::Result<()> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::other(format!("{} has no file name", path.display())))?;
        let temp = path.with_file_name(format!(
            ".{}.webop-{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let result = fs::write(&temp, contents)
            .and_then(|()| match permissions {
                Some(p) => fs::set_permissions(&temp, p.clone()),
                None => Ok(()),
            })
            .and_then(|()| fs::rename(&temp, path));
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        }
        result
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn remove_dir(&self, path: &Path) -> io::Result<()> {
        fs::remove_dir(path)
    }
}
