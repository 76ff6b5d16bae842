//! `make docker-build` must not depend on the machine-local `.cargo/config.toml`: the files the
//! Dockerfile's build context holds (its `.dockerignore` re-includes them) must build on their
//! own, offline, as `cargo build --locked` in the image does. Until webop is published,
//! `make vendor-webop` (a prerequisite of `docker-build`) puts its crates into `.webop/`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use webop_cli::cli::cargo;

use support::{create_webapp, init_webapp, project_dir, target_dir, workspace};

/// The paths `.dockerignore` re-includes after excluding everything (`**`): plain files and
/// `dir/**` trees, the only forms the scaffold writes.
fn context_entries(dir: &Path) -> Vec<String> {
    let ignore = std::fs::read_to_string(dir.join(".dockerignore")).unwrap();
    let rules: Vec<&str> = ignore
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert_eq!(rules.first(), Some(&"**"), "everything is excluded first");
    rules[1..]
        .iter()
        .map(|rule| {
            let entry = rule
                .strip_prefix('!')
                .unwrap_or_else(|| panic!("only re-includes follow `**`: {rule}"));
            entry.strip_suffix("/**").unwrap_or(entry).to_owned()
        })
        .collect()
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else if from.is_file() {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
}

/// The platform rustc compiles for here, as `rustc -vV` names it.
fn host_triple() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().unwrap();
    String::from_utf8(version.stdout)
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names its host")
        .to_owned()
}

#[test]
fn the_image_build_context_builds_offline_without_the_machine_local_patch() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let _build = support::one_build_at_a_time(&dir);
    // The lock file the user's first build writes, which the Dockerfile builds `--locked`: for
    // this machine's platform only, as a build resolves it (without `--filter-platform`,
    // `cargo metadata` fetches every platform's crates, such as android_system_properties, which
    // no build here has downloaded).
    let resolved = cargo::command()
        .args(["metadata", "--offline", "--format-version", "1"])
        .args(["--filter-platform", &host_triple()])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        resolved.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&resolved.stderr)
    );
    let vendor = cargo::shell_environment(&mut Command::new("make"))
        .args(["--no-print-directory", "vendor-webop"])
        .current_dir(&dir)
        .output()
        .expect("make runs");
    assert!(
        vendor.status.success(),
        "make vendor-webop: {}",
        String::from_utf8_lossy(&vendor.stderr)
    );
    assert!(dir.join(".webop/config.toml").is_file());

    let context_dir = tempfile::tempdir().unwrap();
    let context: PathBuf = context_dir.path().join("workspace");
    for entry in context_entries(&dir) {
        copy_tree(&dir.join(&entry), &context.join(&entry));
    }
    assert!(
        !context.join(".cargo").exists(),
        "the patch is machine-local"
    );
    // What the Dockerfile runs, offline: every crate must come from the context or the cache.
    let output = cargo::command()
        .args(["build", "--offline", "--locked", "--bin", "webapp-operator"])
        .args(["--config", ".webop/config.toml"])
        .current_dir(&context)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo build in the build context: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
