//! Clippy on a generated project without checking its dependencies again.
//!
//! `cargo clippy` checks every dependency of the project in metadata only: a build of the whole
//! tree that no other build shares, once per feature set in the tests' target directory. Here
//! clippy-driver, as cargo's workspace
//! wrapper, compiles the project's own crates (cargo gives it the workspace's members only) and
//! lints them as `cargo clippy -- -D warnings` does, and the dependencies are the plain builds
//! every other project's build shares.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `program`, a cargo that builds the project `dir`, with clippy's lints and warnings denied as
/// `cargo clippy -- -D warnings` has them (its arguments are passed the way cargo-clippy does).
pub fn linting(mut program: Command, dir: &Path) -> Command {
    program
        .env("RUSTC_WORKSPACE_WRAPPER", clippy_driver(dir))
        .env(
            "CLIPPY_ARGS",
            "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__",
        );
    program
}

/// The clippy-driver of the toolchain that builds in `dir` (as `cargo clippy` finds its own).
pub fn clippy_driver(dir: &Path) -> PathBuf {
    webop_cli::toolchain::beside_rustc("clippy-driver", dir)
        .expect("clippy-driver is installed beside rustc (rustup component add clippy)")
}
