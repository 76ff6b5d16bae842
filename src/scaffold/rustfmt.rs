//! Rust that webop writes, laid out as `cargo fmt` lays it out.
//!
//! `make build`, `test` and `run` run `cargo fmt`, so a Rust file webop writes must be one
//! rustfmt leaves alone: else a tool-owned file no longer equals its render and every later
//! command refuses it as edited. Rather than keep every template and every edit rustfmt-clean by
//! hand (they drift), the engine passes the Rust it renders and writes through rustfmt itself,
//! and compares Rust files modulo rustfmt (so a tree scaffolded before this, or laid out by
//! another rustfmt run, is not "edited").
//!
//! rustfmt runs with edition 2024 (a generated project's) and no configuration file, as
//! `cargo fmt` does in a generated project, which has none. When rustfmt is not installed or
//! cannot parse the text, the text is kept as it is. Results are cached by input: in memory, as
//! a command renders the same files several times (before and after it, for the lock), and on
//! disk (`disk_cache`), as the next command renders them again.

mod disk_cache;

use std::collections::HashMap;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{LazyLock, Mutex};

use disk_cache::{DiskCache, Layout};

static CACHE: LazyLock<Mutex<HashMap<String, Option<String>>>> = LazyLock::new(Mutex::default);

/// The layouts earlier commands kept, for the rustfmt this one runs.
static DISK: LazyLock<Option<DiskCache>> =
    LazyLock::new(|| DiskCache::for_rustfmt(Path::new(&*RUSTFMT)));

/// Whether the file at `path` is Rust source (laid out by rustfmt).
pub fn is_rust(path: &str) -> bool {
    path.ends_with(".rs")
}

/// `source` as rustfmt lays it out, or as it is when rustfmt is not installed or fails.
pub fn format(source: &str) -> String {
    formatted(source).unwrap_or_else(|| source.to_owned())
}

/// `source` as rustfmt lays it out; `None` when rustfmt is not installed or cannot parse it.
pub fn formatted(source: &str) -> Option<String> {
    if let Some(hit) = CACHE.lock().expect("not poisoned").get(source) {
        return hit.clone();
    }
    let result = layout_of(source);
    CACHE
        .lock()
        .expect("not poisoned")
        .insert(source.to_owned(), result.clone());
    result
}

/// Lays out every one of `sources` at once, rustfmt running for several side by side, so that
/// [`format`] and [`formatted`] find them laid out. A rustfmt run costs about 45 ms, most of it
/// loading the compiler's libraries: a command that renders a dozen Rust files (`webop
/// manifests` renders the whole project for its lock) would spend half a second on them in turn.
pub fn lay_out_all<'a>(sources: impl IntoIterator<Item = &'a str>) {
    let mut missing: Vec<&str> = {
        let cache = CACHE.lock().expect("not poisoned");
        sources
            .into_iter()
            .filter(|source| !cache.contains_key(*source))
            .collect()
    };
    missing.sort_unstable();
    missing.dedup();
    let side_by_side = std::thread::available_parallelism().map_or(2, |n| n.get() * 2);
    for batch in missing.chunks(side_by_side) {
        std::thread::scope(|scope| {
            for source in batch {
                scope.spawn(|| formatted(source));
            }
        });
    }
}

/// Whether `disk` is `expected` up to rustfmt's layout (for a Rust file at `path`; other files
/// byte for byte).
pub fn same(path: &str, disk: &[u8], expected: &[u8]) -> bool {
    if disk == expected {
        return true;
    }
    if !is_rust(path) {
        return false;
    }
    let (Ok(disk), Ok(expected)) = (std::str::from_utf8(disk), std::str::from_utf8(expected))
    else {
        return false;
    };
    match (formatted(disk), formatted(expected)) {
        (Some(disk), Some(expected)) => disk == expected,
        _ => false,
    }
}

/// Whether rustfmt leaves `source` as it is (text it cannot parse counts as laid out: there is
/// no layout of it to keep).
pub fn is_formatted(source: &str) -> bool {
    formatted(source).is_none_or(|f| f == source)
}

/// The rustfmt to run: `RUSTFMT`, else the one beside the rustc of the current directory's
/// toolchain (see [`crate::toolchain`]), else `rustfmt` from `PATH`.
static RUSTFMT: LazyLock<std::ffi::OsString> = LazyLock::new(|| {
    if let Some(rustfmt) = std::env::var_os("RUSTFMT") {
        return rustfmt;
    }
    crate::toolchain::beside_rustc("rustfmt", Path::new("."))
        .map_or_else(|| "rustfmt".into(), Into::into)
});

/// The layout of `source`, from the disk cache or else from rustfmt (kept on disk then).
fn layout_of(source: &str) -> Option<String> {
    let disk = DISK.as_ref();
    let layout = match disk.and_then(|disk| disk.get(source)) {
        Some(kept) => kept,
        None => {
            let layout = run_rustfmt(source)?;
            if let Some(disk) = disk {
                disk.put(source, &layout);
            }
            layout
        }
    };
    match layout {
        Layout::Laid(text) => Some(text),
        Layout::Unparsable => None,
    }
}

/// What rustfmt makes of `source`; `None` when it did not run to its end (not installed, or
/// stopped), which is not kept.
fn run_rustfmt(source: &str) -> Option<Layout> {
    let mut command = Command::new(&*RUSTFMT);
    command.args(["--edition", "2024", "--emit", "stdout", "--quiet"]);
    // No rustfmt.toml of the directory webop runs in, or of the user's home, may change it.
    if cfg!(unix) {
        command.args(["--config-path", "/dev/null"]);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    // rustfmt reads all its input before it writes: no deadlock on a large file.
    stdin.write_all(source.as_bytes()).ok()?;
    drop(stdin);
    let output = child.wait_with_output().ok()?;
    // rustfmt exits with 1 on input it cannot parse; a signal or another code says nothing of
    // the input, and is not kept.
    match output.status.code()? {
        0 if !output.stdout.is_empty() || source.trim().is_empty() => {
            Some(String::from_utf8(output.stdout).map_or(Layout::Unparsable, Layout::Laid))
        }
        0 | 1 => Some(Layout::Unparsable),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lays_out_rust_as_cargo_fmt_does() {
        assert_eq!(
            format("fn main(){let x=1;}\n"),
            "fn main() {\n    let x = 1;\n}\n"
        );
        assert!(is_formatted("fn main() {}\n"));
        assert!(!is_formatted("fn main(){}\n"));
    }

    #[test]
    fn lays_out_many_at_once_as_one_by_one() {
        let sources = ["fn a(){}\n", "fn b( {\n", "fn c() {}\n", "fn a(){}\n"];
        lay_out_all(sources);
        assert_eq!(formatted(sources[0]).as_deref(), Some("fn a() {}\n"));
        assert_eq!(formatted(sources[1]), None);
        assert_eq!(formatted(sources[2]).as_deref(), Some("fn c() {}\n"));
    }

    #[test]
    fn keeps_what_it_cannot_parse() {
        assert_eq!(format("fn main( {\n"), "fn main( {\n");
    }

    #[test]
    fn rust_files_compare_up_to_layout() {
        assert!(same("a.rs", b"fn f(){}\n", b"fn f() {}\n"));
        assert!(!same("a.rs", b"fn f(){}\n", b"fn g() {}\n"));
        assert!(!same("a.yaml", b"a:  1\n", b"a: 1\n"));
    }
}
