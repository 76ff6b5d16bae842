//! The workspace's packages and their files, found from the root `Cargo.toml`.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository root (this package's directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of each workspace member, read from `members = [...]` in the root manifest.
pub fn members() -> Vec<PathBuf> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("the root Cargo.toml");
    let start = manifest
        .find("members = [")
        .expect("a [workspace] members list");
    let list = &manifest[start..];
    let list = &list[list.find('[').unwrap() + 1..list.find(']').unwrap()];
    let members: Vec<PathBuf> = list
        .split(',')
        .map(|member| member.trim().trim_matches('"'))
        .filter(|member| !member.is_empty())
        .map(|member| root().join(member))
        .collect();
    assert!(members.len() > 5, "members read as {members:?}");
    members
}

/// Every file under `dir` whose name ends in `extension`, sorted; `target/` and hidden
/// directories are not walked.
pub fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    pending.push(path);
                }
            } else if name.ends_with(extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// `path` relative to the repository root, for messages.
pub fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
