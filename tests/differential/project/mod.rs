//! The two generated projects and the runs of the two generators on them: one Go module with a
//! package per case for one run of controller-gen (`paths=./...`), and one Rust crate with a
//! module per case, compiled once, whose `main` writes every case's CRD as `webop manifests`
//! would.
//!
//! A case either language refuses (a controller-gen error in its package, a compile error in its
//! module, a panic when its CRD is built) is set aside with the reason. controller-gen writes
//! the other packages' CRDs anyway; a crate is built again without the modules that do not
//! compile (`cargo`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::go;
use super::model::Case;

mod cargo;

pub use cargo::{run_rust_cases, target_dir};

/// What one generator made of the cases: a case's CRD file (name, contents), or why it refused
/// the case.
#[derive(Debug, Default)]
pub struct Outcome {
    pub files: BTreeMap<String, (String, String)>,
    pub refused: BTreeMap<String, String>,
}

pub(super) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Writes `contents` to `path` unless it holds them already, so that an unchanged case keeps
/// its modification time and cargo does not rebuild it.
pub(super) fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// Empties `dir` (creating it).
pub(super) fn fresh_dir(dir: &Path) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    std::fs::create_dir_all(dir).unwrap();
}

/// Removes the files and directories of `dir` whose names are not in `keep`.
pub(super) fn prune(dir: &Path, keep: &[String]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !keep.contains(&name) {
            let path = entry.path();
            if path.is_dir() {
                std::fs::remove_dir_all(&path).unwrap();
            } else {
                std::fs::remove_file(&path).unwrap();
            }
        }
    }
}

/// The case a file name or diagnostic mentions: `c0042` in `c0042.example.com_widgets.yaml`,
/// `./c0042/types.go:3:1: ...` or `src/c0042.rs:3:1: ...`.
pub fn case_named_in(text: &str, cases: &[Case]) -> Option<String> {
    cases
        .iter()
        .map(|c| &c.name)
        .find(|name| {
            text.match_indices(name.as_str()).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric())
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            })
        })
        .cloned()
}

/// The Go module `webop.dev/differential` in `dir`: the conformance module's requirements, one
/// package per case.
pub fn write_go_module(dir: &Path, cases: &[Case]) {
    let conformance = repo().join("tests/conformance");
    let go_mod = std::fs::read_to_string(conformance.join("go.mod")).unwrap();
    let go_mod = go_mod.replace(
        "module webop.dev/conformance",
        "module webop.dev/differential",
    );
    write_if_changed(&dir.join("go.mod"), &go_mod);
    write_if_changed(
        &dir.join("go.sum"),
        &std::fs::read_to_string(conformance.join("go.sum")).unwrap(),
    );
    let mut keep = vec!["go.mod".to_owned(), "go.sum".to_owned()];
    for case in cases {
        write_if_changed(&dir.join(&case.name).join("types.go"), &go::source(case));
        keep.push(case.name.clone());
    }
    prune(dir, &keep);
}

/// Runs controller-gen once on every package (`paths=./...`). It writes the CRDs of all of them
/// even when it reports errors; a case whose package has an error is refused, whatever was
/// written for it.
pub fn run_controller_gen(tool: &Path, module: &Path, out: &Path, cases: &[Case]) -> Outcome {
    fresh_dir(out);
    let output = Command::new(tool)
        .arg("crd:allowDangerousTypes=true")
        .arg("paths=./...")
        .arg(format!("output:dir={}", out.display()))
        .current_dir(module)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("controller-gen runs");
    let mut outcome = Outcome::default();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let mut refused = BTreeMap::<String, Vec<&str>>::new();
        for line in stderr.lines() {
            if let Some(case) = case_named_in(line, cases) {
                refused.entry(case).or_default().push(line);
            }
        }
        assert!(
            !refused.is_empty(),
            "controller-gen failed on no case in particular:\n{stderr}"
        );
        for (case, lines) in refused {
            outcome.refused.insert(case, lines.join("\n"));
        }
    }
    read_outputs(out, cases, &mut outcome);
    outcome
}

pub(super) fn read_outputs(out: &Path, cases: &[Case], outcome: &mut Outcome) {
    for entry in std::fs::read_dir(out).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let case = case_named_in(&name, cases)
            .unwrap_or_else(|| panic!("{}: a file of no case", path.display()));
        let contents = std::fs::read_to_string(&path).unwrap();
        if name.ends_with(".panic") {
            outcome.refused.insert(case, contents);
        } else if !outcome.refused.contains_key(&case) {
            outcome.files.insert(case, (name, contents));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_name_their_case_exactly() {
        let cases: Vec<Case> = [1, 12]
            .into_iter()
            .map(|i| super::super::generate::case(1, i))
            .collect();
        assert_eq!(
            case_named_in("/tmp/go/c0012/types.go:3:2: bad", &cases).as_deref(),
            Some("c0012")
        );
        assert_eq!(
            case_named_in("c0001.example.com_widgets.yaml", &cases).as_deref(),
            Some("c0001")
        );
        assert_eq!(case_named_in("c00012.rs", &cases), None);
    }
}
