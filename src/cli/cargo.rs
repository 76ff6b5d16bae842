//! The cargo that webop runs in a user's project, with the environment a shell gives it.
//!
//! A cargo that runs webop (`cargo run`, `cargo test`) sets variables that describe webop's own
//! package: `CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, `OUT_DIR`, ... Cargo keeps the value of every
//! variable a build script watches (`rerun-if-env-changed`; ring's watches several of these) and
//! runs the script again, and rebuilds everything above its crate, when the value differs. So a
//! project built by webop under `cargo run`, then by its user from a shell, would build rustls,
//! kube and everything above them twice over, in place. The project's cargo never sees them.

use std::ffi::OsStr;
use std::process::Command;

/// The cargo that runs webop (`CARGO`), or the one on the PATH, without the variables that
/// describe the package of a cargo that runs webop.
pub fn command() -> Command {
    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    shell_environment(&mut cargo);
    cargo
}

/// Removes from `command`'s environment the variables a cargo sets for the package it builds or
/// runs; `CARGO` (which cargo) and the user's own settings (`CARGO_HOME`, `CARGO_TARGET_DIR`,
/// ...) stay.
pub fn shell_environment(command: &mut Command) -> &mut Command {
    for (name, _) in std::env::vars_os() {
        if describes_a_package(&name) {
            command.env_remove(name);
        }
    }
    command
}

fn describes_a_package(name: &OsStr) -> bool {
    const PREFIXES: [&str; 5] = [
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_CRATE_",
        "CARGO_BIN_",
        "CARGO_CFG_",
    ];
    const NAMES: [&str; 5] = [
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_TARGET_TMPDIR",
        "CARGO_RUSTC_CURRENT_DIR",
        "OUT_DIR",
        "CARGO_ENCODED_RUSTFLAGS",
    ];
    let Some(name) = name.to_str() else {
        return false;
    };
    PREFIXES.iter().any(|prefix| name.starts_with(prefix)) || NAMES.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_s_variables_go_and_the_user_s_stay() {
        for gone in [
            "CARGO_MANIFEST_DIR",
            "CARGO_MANIFEST_PATH",
            "CARGO_PKG_NAME",
            "CARGO_PKG_VERSION_MAJOR",
            "CARGO_CRATE_NAME",
            "CARGO_BIN_EXE_webop",
            "CARGO_PRIMARY_PACKAGE",
            "CARGO_TARGET_TMPDIR",
            "OUT_DIR",
        ] {
            assert!(describes_a_package(OsStr::new(gone)), "{gone}");
        }
        for kept in [
            "CARGO",
            "CARGO_HOME",
            "CARGO_TARGET_DIR",
            "CARGO_INCREMENTAL",
            "RUSTFLAGS",
            "PATH",
        ] {
            assert!(!describes_a_package(OsStr::new(kept)), "{kept}");
        }
    }

    #[test]
    fn a_command_drops_what_the_test_s_cargo_set() {
        // Cargo runs this test with CARGO_MANIFEST_DIR and CARGO_PKG_NAME set.
        assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
        let cargo = command();
        let removed: Vec<_> = cargo
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name.to_owned())
            .collect();
        assert!(removed.iter().any(|name| name == "CARGO_MANIFEST_DIR"));
        assert!(removed.iter().any(|name| name == "CARGO_PKG_NAME"));
        assert!(!removed.iter().any(|name| name == "PATH"));
    }
}
