//! A checkpoint: what a user runs after scaffolding, on the project as the sequence left it.
//! `webop manifests`, then the workspace builds with clippy's lints and `-D warnings`, its tests
//! pass on the testkit, and kustomize builds `config/default`. Slow (it compiles the project):
//! sequences have few of them, all in one target directory.

use std::path::{Path, PathBuf};
use std::process::Command;

// The lock the other tests' project builds take (the cli test binary loads this file for them
// too; `examples/cli_sequences.rs` only here).
#[allow(clippy::duplicate_mod)]
#[path = "../support/build_lock.rs"]
mod build_lock;
#[allow(clippy::duplicate_mod)]
#[path = "../support/clippy.rs"]
mod clippy;

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn run(root: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    run_command(root, Command::new(program), args)
}

/// Runs cargo `args` in `root` with clippy's lints on the project's crates (see `clippy`).
fn run_linting(root: &Path, cargo: &str, args: &[&str]) -> Result<(), String> {
    run_command(root, clippy::linting(Command::new(cargo), root), args)
}

fn run_command(root: &Path, mut command: Command, args: &[&str]) -> Result<(), String> {
    let program = command.get_program().to_string_lossy().into_owned();
    // A cargo run from this test would see the test's package in CARGO_MANIFEST_DIR & co.
    let output = webop_cli::cli::cargo::shell_environment(&mut command)
        .args(args)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("KUBEBUILDER_ASSETS")
        .env_remove("RUSTFLAGS")
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail: Vec<&str> = stderr.lines().rev().take(40).collect();
    Err(format!(
        "`{program} {}` failed:\n{}",
        args.join(" "),
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    ))
}

/// Holds the lock of the target directory's project builds while `args` runs, if that webop
/// command builds the project: `manifests` builds its crdgen there, under the same name as other
/// tests' projects' (a round-trip test once read another project's CRDs through it).
pub fn lock_if_it_builds(root: &Path, args: &[String]) -> Option<impl Sized + use<>> {
    builds(args).then(|| build_lock::lock_project(&target_dir(), root))
}

fn builds(args: &[String]) -> bool {
    args.first().is_some_and(|command| command == "manifests")
}

/// Before a command that builds the project (see `lock_if_it_builds`), and before the tree is
/// read to compare with what the command leaves: the workspace's Cargo.lock, as the other tests'
/// project builds have it (see `build_lock::pin_to_the_workspace_lock`).
pub fn pin_if_it_builds(root: &Path, args: &[String]) {
    if builds(args) {
        build_lock::pin_to_the_workspace_lock(root);
    }
}

/// Runs the checkpoint in the project at `root` (a project with no PROJECT file passes).
pub fn run_all(root: &Path) -> Result<(), String> {
    if !root.join("PROJECT").exists() {
        return Ok(());
    }
    build_lock::pin_to_the_workspace_lock(root);
    let _build = build_lock::lock_project(&target_dir(), root);
    let mut out = Vec::new();
    webop_cli::cli::run(["webop", "manifests"], root, &mut out)
        .map_err(|e| format!("webop manifests: {e:#}"))?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // What `cargo clippy --workspace --all-targets -- -D warnings` finds fails the build.
    run_linting(root, &cargo, &["build", "--workspace", "--all-targets"])?;
    run_linting(root, &cargo, &["test", "--workspace"])?;
    if Command::new("kubectl")
        .arg("version")
        .arg("--client")
        .output()
        .is_ok()
    {
        run(root, "kubectl", &["kustomize", "config/default"])?;
    }
    Ok(())
}
