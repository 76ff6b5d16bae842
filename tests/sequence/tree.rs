//! The project tree as the invariants see it: every file and directory (outside `target/`), and
//! the files of a kind (Rust, user-owned, under a directory).

use std::collections::BTreeMap;
use std::path::Path;

use webop_cli::scaffold::templates::is_tool_owned;

/// Every path under the root with, for files, their bytes (`None`: a directory).
pub type Snapshot = BTreeMap<String, Option<Vec<u8>>>;

/// Directories no command of webop writes: the build's, and webop's bookkeeping's bases (Rust
/// files that are no crate's, left out of the layout checks).
fn skipped(relative: &str) -> bool {
    relative == "target"
}

pub fn snapshot(root: &Path) -> Snapshot {
    fn walk(root: &Path, dir: &Path, out: &mut Snapshot) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if skipped(&relative) {
                continue;
            }
            if path.is_dir() {
                out.insert(relative, None);
                walk(root, &path, out);
            } else {
                out.insert(relative, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Snapshot::new();
    walk(root, root, &mut out);
    out
}

/// The files of `snapshot`, by path.
pub fn files(snapshot: &Snapshot) -> impl Iterator<Item = (&String, &Vec<u8>)> {
    snapshot
        .iter()
        .filter_map(|(path, bytes)| bytes.as_ref().map(|b| (path, b)))
}

/// The files under `dir` (relative to `root`), relative to `root`.
pub fn files_under(root: &Path, dir: &str) -> Vec<String> {
    snapshot(root)
        .into_iter()
        .filter(|(path, bytes)| bytes.is_some() && path.starts_with(&format!("{dir}/")))
        .map(|(path, _)| path)
        .collect()
}

/// Whether `path` is a Rust file of the project's crates (not webop's recorded bases).
pub fn is_project_rust(path: &str) -> bool {
    path.ends_with(".rs") && !path.starts_with(".webop-scaffold/")
}

/// The user-owned files a user edits (Rust of the crates, the kustomizations of samples and
/// roles), each with whether it has a `+webop:scaffold:` marker.
pub fn user_owned_files(root: &Path) -> Vec<(String, bool)> {
    files(&snapshot(root))
        .filter(|(path, _)| {
            is_project_rust(path)
                || *path == "config/samples/kustomization.yaml"
                || *path == "config/rbac/kustomization.yaml"
        })
        .filter_map(|(path, bytes)| {
            let text = std::str::from_utf8(bytes).ok()?;
            (!is_tool_owned(text)).then(|| (path.clone(), text.contains("+webop:scaffold:")))
        })
        .collect()
}

/// `text` with the comment `note` added: on a line of its own above its first
/// `+webop:scaffold:` marker, indented as the marker (else at its end). `None`: no marker there.
pub fn add_comment(text: &str, comment: &str, note: &str, at_marker: bool) -> Option<String> {
    if !at_marker {
        let mut out = text.to_owned();
        if !out.ends_with('\n') && !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{comment} {note}\n"));
        return Some(out);
    }
    let mut out = String::new();
    let mut done = false;
    for line in text.split_inclusive('\n') {
        if !done && line.contains("+webop:scaffold:") {
            let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
            out.push_str(&format!("{indent}{comment} {note}\n"));
            done = true;
        }
        out.push_str(line);
    }
    done.then_some(out)
}
