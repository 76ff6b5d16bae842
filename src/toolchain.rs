//! The Rust toolchain's own tools (rustfmt, clippy-driver), found beside the rustc that builds in
//! a directory, as cargo finds its subcommands' drivers. rustup's proxies (`~/.cargo/bin/rustfmt`)
//! pick the same toolchain, but cost about 18 ms a run to do so: one `rustc --print sysroot` is
//! cheaper than a dozen proxied runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `tool` (`rustfmt`, `clippy-driver`) in the `bin` directory of the sysroot of the rustc that
/// builds in `dir` (`RUSTC`, else `rustc`, whose proxy picks the directory's toolchain); `None`
/// when that rustc does not run or its toolchain has no such tool.
pub fn beside_rustc(tool: &str, dir: &Path) -> Option<PathBuf> {
    let output = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["--print", "sysroot"])
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())?;
    let sysroot = String::from_utf8(output.stdout).ok()?;
    Some(
        Path::new(sysroot.trim())
            .join("bin")
            .join(format!("{tool}{}", std::env::consts::EXE_SUFFIX)),
    )
    .filter(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_toolchain_s_rustfmt_and_nothing_for_an_unknown_tool() {
        let rustfmt = beside_rustc("rustfmt", Path::new(".")).expect("rustfmt is installed");
        assert!(rustfmt.ends_with(format!("bin/rustfmt{}", std::env::consts::EXE_SUFFIX)));
        assert_eq!(beside_rustc("no-such-tool", Path::new(".")), None);
    }
}
