//! The two generated projects and the runs of the two generators on them: one Go module with a
//! package per case for one run of controller-gen (`paths=./...`), and one Rust crate with a
//! module per case, compiled once, whose `main` writes every case's CRD as `webop manifests`
//! would.
//!
//! A case either language refuses (a controller-gen error in its package, a compile error in its
//! module, a panic when its CRD is built) is set aside with the reason. controller-gen writes
//! the other packages' CRDs anyway; the crate is built again without the modules that do not
//! compile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::model::Case;
use super::{go, rust};

/// What one generator made of the cases: a case's CRD file (name, contents), or why it refused
/// the case.
#[derive(Debug, Default)]
pub struct Outcome {
    pub files: BTreeMap<String, (String, String)>,
    pub refused: BTreeMap<String, String>,
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Writes `contents` to `path` unless it holds them already, so that an unchanged case keeps
/// its modification time and cargo does not rebuild it.
fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// Empties `dir` (creating it).
fn fresh_dir(dir: &Path) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    std::fs::create_dir_all(dir).unwrap();
}

/// Removes the files and directories of `dir` whose names are not in `keep`.
fn prune(dir: &Path, keep: &[String]) {
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

fn read_outputs(out: &Path, cases: &[Case], outcome: &mut Outcome) {
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

/// The Rust crate `webop-differential-cases` in `dir`: webop by path, the workspace's lock
/// file (so dependencies are the ones already built in the shared target directory), a module
/// per case and a `main` that writes each case's CRD file into the directory it is given.
pub fn write_rust_crate(dir: &Path, cases: &[&Case]) {
    let manifest = format!(
        r#"[package]
name = "webop-differential-cases"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
webop = {{ path = {repo:?}, default-features = false }}
k8s-openapi = {{ version = "0.29", default-features = false, features = ["latest"] }}
serde_json = "1"

# As the webop workspace builds them, so the dependencies compiled for it are reused.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false

[workspace]
"#,
        repo = repo().display().to_string()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(
        &dir.join("Cargo.lock"),
        &std::fs::read_to_string(repo().join("Cargo.lock")).unwrap(),
    );
    let mut main = String::from(
        "//! Writes the CRD file of every case into the directory given as the argument, as\n\
         //! `webop manifests` writes it, or `<case>.panic` with the panic's message.\n\n",
    );
    let mut keep = vec!["main.rs".to_owned()];
    for case in cases {
        main.push_str(&format!("mod {};\n", case.name));
        write_if_changed(
            &dir.join("src").join(format!("{}.rs", case.name)),
            &rust::source(case),
        );
        keep.push(format!("{}.rs", case.name));
    }
    main.push_str("\nconst CASES: &[(&str, fn() -> webop::crd::CustomResourceDefinition)] = &[\n");
    for case in cases {
        main.push_str(&format!("    ({:?}, {}::crd),\n", case.name, case.name));
    }
    main.push_str("];\n\n");
    main.push_str(MAIN);
    write_if_changed(&dir.join("src/main.rs"), &main);
    prune(&dir.join("src"), &keep);
}

const MAIN: &str = r#"fn main() {
    let out = std::path::PathBuf::from(std::env::args_os().nth(1).expect("an output directory"));
    std::panic::set_hook(Box::new(|_| {}));
    for (name, crd) in CASES {
        match std::panic::catch_unwind(crd) {
            Ok(crd) => {
                // What `webop manifests` does with the JSON the API crate's crdgen prints.
                let json = serde_json::to_string(&[crd]).unwrap();
                let crds: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
                let file = webop::manifests::crd_file(&crds[0]);
                let file_name = file.path.file_name().unwrap();
                std::fs::write(out.join(file_name), file.contents).unwrap();
            }
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                std::fs::write(out.join(format!("{name}.panic")), message).unwrap();
            }
        }
    }
}
"#;

/// The target directory the generated crate is built in: the workspace's, shared.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"))
}

/// Builds the crate with the modules of `cases` and runs it; a module that does not compile is
/// set aside with its errors and the crate is built again without it.
pub fn run_rust_crate(dir: &Path, out: &Path, cases: &[Case]) -> Outcome {
    let mut outcome = Outcome::default();
    let mut remaining: Vec<&Case> = cases.iter().collect();
    loop {
        write_rust_crate(dir, &remaining);
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args(["build", "--quiet", "--message-format=short"])
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", target_dir())
            // Incremental state would take hundreds of MB for little: the same cases are not
            // compiled again at all, and other cases mostly are new code.
            .env("CARGO_INCREMENTAL", "0")
            .output()
            .expect("cargo runs");
        if output.status.success() {
            break;
        }
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let mut refused = BTreeMap::<String, Vec<&str>>::new();
        for line in stderr.lines().filter(|l| l.contains("error")) {
            if let Some(case) = line
                .strip_prefix("src/")
                .and_then(|rest| case_named_in(rest.split(':').next().unwrap(), cases))
            {
                refused.entry(case).or_default().push(line);
            }
        }
        assert!(
            !refused.is_empty(),
            "the generated crate does not build, and no case is to blame:\n{stderr}"
        );
        remaining.retain(|c| !refused.contains_key(&c.name));
        for (case, lines) in refused {
            outcome.refused.insert(case, lines.join("\n"));
        }
    }
    fresh_dir(out);
    let binary = target_dir().join("debug/webop-differential-cases");
    let output = Command::new(&binary)
        .arg(out)
        .output()
        .expect("the cases run");
    assert!(
        output.status.success(),
        "{}: {}",
        binary.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    read_outputs(out, cases, &mut outcome);
    outcome
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
