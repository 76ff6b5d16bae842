//! Building, testing and linting a generated project the way its user does, in the workspace's
//! target directory.
//!
//! Builds take the build lock (see `build_lock`); the project's tests do not need it. Their
//! executables are moved out of the target directory to run, so that one project's real-server
//! tests (a steady-state window of 30 s among them) run while the next project builds.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use webop_cli::cli::cargo;

use super::build_lock::{log_step, pin_to_the_workspace_lock};
use super::clippy::linting;
use super::{one_build_at_a_time, target_dir, webop};

/// `program` to run in a generated project `dir`, with the workspace's target directory and
/// Cargo.lock so that dependencies compile once.
fn in_project(mut program: Command, dir: &Path) -> Command {
    pin_to_the_workspace_lock(dir);
    // A generated project is built once per test: incremental state would only fill the disk.
    program
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_INCREMENTAL", "0");
    program
}

/// Runs `cargo args` in a generated project `dir`; panics on failure.
pub fn cargo_in(dir: &Path, args: &[&str]) {
    let _build = one_build_at_a_time(dir);
    cargo_holding_the_lock(dir, args, Lints::Off);
}

/// Builds every target of the project `dir` (as `cargo test --no-run` and `cargo build
/// --examples` do) with clippy's lints and warnings denied: what `cargo clippy --workspace
/// --all-targets -- -D warnings` finds, it fails on; panics on failure.
pub fn lint(dir: &Path) {
    let _build = one_build_at_a_time(dir);
    cargo_holding_the_lock(
        dir,
        &["build", "--workspace", "--bins", "--examples"],
        Lints::On,
    );
    cargo_holding_the_lock(dir, &["test", "--workspace", "--no-run"], Lints::On);
}

/// Whether a build lints the project's crates as it compiles them (see `clippy::linting`).
#[derive(Clone, Copy, PartialEq)]
enum Lints {
    On,
    Off,
}

fn cargo_holding_the_lock(dir: &Path, args: &[&str], lints: Lints) {
    let started = Instant::now();
    let mut cargo = in_project(cargo::command(), dir);
    if lints == Lints::On {
        cargo = linting(cargo, dir);
    }
    let status = cargo.args(args).status().unwrap();
    let with = if lints == Lints::On {
        ", with clippy's lints"
    } else {
        ""
    };
    log_step(
        &target_dir(),
        &format!("cargo {}{with}", args.join(" ")),
        started.elapsed(),
    );
    assert!(
        status.success(),
        "`cargo {}` failed in the generated project",
        args.join(" ")
    );
}

/// Where the project's tests run: on a real API server when `KUBEBUILDER_ASSETS` is set, as a
/// user's `cargo test` runs them, or on the testkit whatever the environment.
#[derive(Clone, Copy, PartialEq)]
enum Server {
    AsConfigured,
    Testkit,
}

/// What a user runs first in a generated project: build, test, and clippy with warnings denied.
/// Its tests run on a real API server when `KUBEBUILDER_ASSETS` is set.
pub fn build_test_and_lint(dir: &Path) {
    build_and_lint(dir, &[]).run(Server::AsConfigured);
}

/// [`build_test_and_lint`], with the project's tests on the testkit whatever the environment:
/// for projects that test what compiles, not what a server does.
pub fn build_test_offline_and_lint(dir: &Path) {
    build_and_lint(dir, &[]).run(Server::Testkit);
}

/// [`build_test_offline_and_lint`], then the test targets `on_the_server` once more as
/// [`build_test_and_lint`] runs them: for projects whose other tests repeat what another project's
/// run already does on a real API server.
pub fn build_test_offline_and_lint_serving(dir: &Path, on_the_server: &[&str]) {
    let tests = build_and_lint(dir, on_the_server);
    tests.run(Server::Testkit);
    tests.run_only(on_the_server, Server::AsConfigured);
}

/// Builds the project's binaries, examples and tests with clippy's lints (`clippy::linting`)
/// and runs its doctests, all under the build lock, and returns the test executables moved out
/// of the target directory. `must_have` names test targets that must be among them.
fn build_and_lint(dir: &Path, must_have: &[&str]) -> TestExecutables {
    let _build = one_build_at_a_time(dir);
    cargo_holding_the_lock(
        dir,
        &["build", "--workspace", "--bins", "--examples"],
        Lints::On,
    );
    let tests = TestExecutables::build(dir);
    for target in must_have {
        assert!(
            tests.executables.iter().any(|test| test.target == *target),
            "the generated project has no test target {target}"
        );
    }
    cargo_holding_the_lock(dir, &["test", "--workspace", "--doc"], Lints::On);
    tests
}

/// The test executables of a generated project, moved where the next project's build does
/// not replace them (its artifacts have the same names), and removed once they ran: each is
/// about 100 MB, and kept in the target directory they added up to several gigabytes of it in a
/// CI run. (Cargo builds a test executable again if it is missing.)
struct TestExecutables {
    _moved_to: tempfile::TempDir,
    executables: Vec<TestExecutable>,
}

struct TestExecutable {
    target: String,
    path: PathBuf,
    /// The package's directory: where `cargo test` runs the executable.
    package_dir: PathBuf,
}

impl TestExecutables {
    /// `cargo test --workspace --no-run` in `dir`, with clippy's lints; the caller holds the
    /// build lock.
    fn build(dir: &Path) -> Self {
        let started = Instant::now();
        let output = linting(in_project(cargo::command(), dir), dir)
            .args(["test", "--workspace", "--no-run"])
            .args(["--message-format", "json-render-diagnostics"])
            .stderr(std::process::Stdio::inherit())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "`cargo test --no-run` failed in the generated project"
        );
        let moved_to = tempfile::tempdir().unwrap();
        let mut executables = Vec::new();
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let message: serde_json::Value = serde_json::from_str(line).unwrap();
            let test_artifact =
                message["reason"] == "compiler-artifact" && message["profile"]["test"] == true;
            let Some(built) = message["executable"].as_str().filter(|_| test_artifact) else {
                continue;
            };
            let built = Path::new(built);
            let path = moved_to.path().join(built.file_name().unwrap());
            move_file(built, &path);
            let manifest = Path::new(message["manifest_path"].as_str().unwrap());
            executables.push(TestExecutable {
                target: message["target"]["name"].as_str().unwrap().to_owned(),
                path,
                package_dir: manifest.parent().unwrap().to_owned(),
            });
        }
        log_step(
            &target_dir(),
            "cargo test --no-run, with clippy's lints",
            started.elapsed(),
        );
        assert!(
            !executables.is_empty(),
            "the generated project has no tests"
        );
        TestExecutables {
            _moved_to: moved_to,
            executables,
        }
    }

    fn run(&self, server: Server) {
        for test in &self.executables {
            test.run(server);
        }
    }

    fn run_only(&self, targets: &[&str], server: Server) {
        for test in &self.executables {
            if targets.contains(&test.target.as_str()) {
                test.run(server);
            }
        }
    }
}

/// Moves the file `from` to `to`, by copying it where they are on different file systems.
fn move_file(from: &Path, to: &Path) {
    if std::fs::rename(from, to).is_err() {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        std::fs::remove_file(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

impl TestExecutable {
    /// Runs the tests as `cargo test` does: in the package's directory, with its manifest
    /// directory in the environment.
    fn run(&self, server: Server) {
        let mut command = Command::new(&self.path);
        command
            .current_dir(&self.package_dir)
            .env("CARGO_MANIFEST_DIR", &self.package_dir);
        if server == Server::Testkit {
            command.env_remove("KUBEBUILDER_ASSETS");
        }
        let started = Instant::now();
        let status = command.status().unwrap();
        let on = if server == Server::Testkit {
            "the testkit"
        } else {
            "the configured server"
        };
        log_step(
            &target_dir(),
            &format!("tests {} on {on}", self.target),
            started.elapsed(),
        );
        assert!(
            status.success(),
            "the generated project's tests {} failed",
            self.target
        );
    }
}

/// `webop manifests` in `dir` (it builds the project's API crate); panics on failure.
pub fn manifests(dir: &Path) {
    manifests_with(dir, &[]);
}

/// `webop manifests args` in `dir`; panics on failure. Its build of the API crate and crdgen
/// lints them as the project's build and test with clippy's lints do (`lint`,
/// `build_test_and_lint`), so that those find them built.
pub fn manifests_with(dir: &Path, args: &[&str]) {
    let _build = one_build_at_a_time(dir);
    let output = linting(in_project(webop(), dir), dir)
        .arg("manifests")
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "webop manifests: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
