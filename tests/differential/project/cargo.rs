//! The Rust side: crates of one module per case, compiled in the shared target directory, whose
//! `main` writes every case's CRD file as `webop manifests` would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::super::model::Case;
use super::super::rust;
use super::{Outcome, case_named_in, fresh_dir, prune, read_outputs, repo, write_if_changed};

/// The Rust crate `package` in `dir`: the dependencies of a generated project (webop by path),
/// the workspace's lock file, a module per case and a `main` that writes each case's CRD file
/// into the directory it is given.
fn write_rust_crate(dir: &Path, package: &str, cases: &[&Case]) {
    let manifest = format!(
        r#"[package]
name = "{package}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
{dependencies}
# Dependencies as generated projects build them, so the ones compiled for those are reused; the
# cases need no debug information.
[profile.dev]
debug = false

[profile.dev.package."*"]
debug = false

[workspace]
"#,
        dependencies = generated_project_dependencies(),
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

/// The dependencies of the golden WebApp operator (its `[workspace.dependencies]`, webop with
/// the features its tests add, by path), but its API crate. Dependencies with the features of a
/// generated project's build are the ones the project tests build in the shared target
/// directory: with webop alone (no default features), Cargo built serde, k8s-openapi, kube-core
/// and webop's crates a further time for this crate, about a minute of a CI run.
fn generated_project_dependencies() -> String {
    let golden = repo().join("testdata/webapp-operator/Cargo.toml");
    let manifest = std::fs::read_to_string(&golden).unwrap();
    let (_, section) = manifest
        .split_once("[workspace.dependencies]\n")
        .expect("the golden's Cargo.toml has [workspace.dependencies]");
    let section = &section[..section.find("\n[").unwrap_or(section.len())];
    let webop = format!(
        "webop = {{ path = {:?}, features = [\"envtest\"] }}",
        repo().join("webop").display().to_string()
    );
    let mut dependencies = String::new();
    for line in section.lines() {
        let line = if line.starts_with("webop = ") {
            webop.as_str()
        } else if line.starts_with("webapp-operator-api ") || line.starts_with('#') {
            continue;
        } else {
            line
        };
        dependencies.push_str(line);
        dependencies.push('\n');
    }
    assert!(
        dependencies.contains("webop = {"),
        "no webop dependency in {}",
        golden.display()
    );
    format!("{}\n", dependencies.trim_end())
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

/// The target directory the generated crates are built in: the workspace's, shared.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"))
}

/// Builds and runs the cases in two crates: the probes (cases given on purpose an attribute that
/// does not fit, which webop may refuse when it compiles) and the others, so that a probe's
/// compile error does not cost the large crate a second build, and each crate stays built while
/// its cases do not change.
pub fn run_rust_cases(work: &Path, out: &Path, cases: &[Case]) -> Outcome {
    fresh_dir(out);
    let (probes, others): (Vec<&Case>, Vec<&Case>) = cases.iter().partition(|c| c.probe);
    let mut outcome = Outcome::default();
    for (dir, cases_here) in [("crate", others), ("probes", probes)] {
        if !cases_here.is_empty() {
            let dir = work.join(dir);
            let package = package_name(&dir);
            build_and_run(&dir, &package, cases_here, out, &mut outcome.refused);
        }
    }
    read_outputs(out, cases, &mut outcome);
    outcome
}

/// The package name of the crate in `dir`: one of its own in the shared target directory, where
/// two crates of one name would share their binary (and, their sources having the same relative
/// paths, cargo's record of what is built).
fn package_name(dir: &Path) -> String {
    // FNV-1a: stable across Rust versions, unlike std's hasher.
    let hash = dir
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    let kind = dir.file_name().unwrap().to_string_lossy();
    format!("webop-differential-{kind}-{:08x}", hash as u32)
}

/// Builds the crate `package` with the modules of `cases` and runs it; a module that does not
/// compile is set aside in `refused` with its errors and the crate is built again without it.
fn build_and_run(
    dir: &Path,
    package: &str,
    cases: Vec<&Case>,
    out: &Path,
    refused: &mut BTreeMap<String, String>,
) {
    let all: Vec<Case> = cases.iter().map(|c| (*c).clone()).collect();
    let mut remaining = cases;
    loop {
        write_rust_crate(dir, package, &remaining);
        let output = webop_cli::cli::cargo::command()
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
        let mut errors = BTreeMap::<String, Vec<&str>>::new();
        for line in stderr.lines().filter(|l| l.contains("error")) {
            if let Some(case) = line
                .strip_prefix("src/")
                .and_then(|rest| case_named_in(rest.split(':').next().unwrap(), &all))
            {
                errors.entry(case).or_default().push(line);
            }
        }
        assert!(
            !errors.is_empty(),
            "{package} does not build, and no case is to blame:\n{stderr}"
        );
        remaining.retain(|c| !errors.contains_key(&c.name));
        for (case, lines) in errors {
            refused.insert(case, lines.join("\n"));
        }
    }
    let binary = target_dir().join("debug").join(package);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_work_directory_has_packages_of_its_own() {
        let one = package_name(Path::new("/a/differential/crate"));
        assert!(one.starts_with("webop-differential-crate-"), "{one}");
        assert_eq!(one, package_name(Path::new("/a/differential/crate")));
        assert_ne!(one, package_name(Path::new("/b/differential/crate")));
        assert_ne!(one, package_name(Path::new("/a/differential/probes")));
    }
}
