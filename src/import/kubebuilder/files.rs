//! The Go files of a kubebuilder project: read and parsed, tests and generated deep copies left
//! out.

use std::path::Path;

use super::Error;
use super::go::{self, GoFile};

pub fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|err| Error::Read {
        path: path.display().to_string(),
        message: err.to_string(),
    })
}

/// The Go files of `dir` (not its subdirectories) but tests and generated deep copies.
pub fn go_files(root: &Path, dir: &Path) -> Result<Vec<GoFile>, Error> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|err| Error::Read {
            path: dir.display().to_string(),
            message: err.to_string(),
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".go")
                && !name.ends_with("_test.go")
                && !name.starts_with("zz_generated")
        })
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let shown = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            go::parse(&shown, &read(path)?).map_err(Error::Go)
        })
        .collect()
}

/// The Go files under `dir`, recursively.
pub fn go_files_under(root: &Path, dir: &Path, out: &mut Vec<GoFile>) -> Result<(), Error> {
    if !dir.is_dir() {
        return Ok(());
    }
    out.extend(go_files(root, dir)?);
    let mut subdirs: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        go_files_under(root, &sub, out)?;
    }
    Ok(())
}
