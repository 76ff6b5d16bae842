//! rustfmt's layouts, kept on disk between commands.
//!
//! `webop manifests` runs after every edit of an API type (`make build`, `make test` and `make
//! run` run it) and renders the whole project each time, for its lock: a dozen Rust files, the
//! same ones each time. A rustfmt run costs about 15 ms of CPU, most of it loading the compiler's
//! libraries, and these runs took a third of a `manifests` that had nothing to build. Kept here,
//! a layout is computed once per rustfmt.
//!
//! Entries live in `$WEBOP_RUSTFMT_CACHE`, else `$XDG_CACHE_HOME/webop/rustfmt`, else
//! `$HOME/.cache/webop/rustfmt` (`WEBOP_RUSTFMT_CACHE=off` turns the cache off), in a directory
//! per rustfmt (its path, size and modification time): another toolchain's rustfmt, which may lay
//! out differently, starts afresh, and the directories of other rustfmts are removed then. An
//! entry is named by the SHA-256 of its input and written whole (to a temporary file, then
//! renamed), so commands running side by side never read half of one.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::scaffold::digest::sha256;

/// Above this many entries, a command that adds one empties the directory first: the cache
/// stays small, and refills with what is still rendered.
const MAX_ENTRIES: usize = 4096;

/// What rustfmt made of an input.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Layout {
    /// rustfmt laid the input out as this.
    Laid(String),
    /// rustfmt could not parse the input.
    Unparsable,
}

/// The entries of one rustfmt.
pub(super) struct DiskCache {
    dir: PathBuf,
    /// Whether this process has checked the size of `dir` (it does once, on its first write).
    checked: AtomicBool,
}

impl DiskCache {
    /// The cache of the rustfmt at `rustfmt`, under the directory the environment names; `None`
    /// when it names none (or `off`), or `rustfmt` is not a file.
    pub(super) fn for_rustfmt(rustfmt: &Path) -> Option<Self> {
        let root = match std::env::var_os("WEBOP_RUSTFMT_CACHE") {
            Some(dir) if dir == "off" || dir.is_empty() => return None,
            Some(dir) => PathBuf::from(dir),
            None => default_root()?,
        };
        Self::under(&root, rustfmt)
    }

    /// The cache of the rustfmt at `rustfmt`, in a directory of `root`.
    pub(super) fn under(root: &Path, rustfmt: &Path) -> Option<Self> {
        let metadata = fs::metadata(rustfmt).ok().filter(fs::Metadata::is_file)?;
        let modified = metadata
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let identity = format!(
            "{}\n{}\n{}",
            rustfmt.display(),
            metadata.len(),
            modified.as_nanos()
        );
        let identity = sha256(identity.as_bytes());
        Some(DiskCache {
            dir: root.join(&identity[..16]),
            checked: AtomicBool::new(false),
        })
    }

    /// The layout of `source` that an earlier command kept, if any.
    pub(super) fn get(&self, source: &str) -> Option<Layout> {
        let entry = fs::read(self.dir.join(key(source))).ok()?;
        match entry.split_first()? {
            (b'L', text) => String::from_utf8(text.to_vec()).ok().map(Layout::Laid),
            (b'U', []) => Some(Layout::Unparsable),
            _ => None,
        }
    }

    /// Keeps `layout` of `source`. A cache that cannot be written is no cache: nothing fails.
    pub(super) fn put(&self, source: &str, layout: &Layout) {
        if !self.checked.swap(true, Ordering::Relaxed) {
            self.make_room();
        }
        let mut entry = Vec::new();
        match layout {
            Layout::Laid(text) => {
                entry.push(b'L');
                entry.extend_from_slice(text.as_bytes());
            }
            Layout::Unparsable => entry.push(b'U'),
        }
        // A name no other writer uses: this process's, and a count of its writes.
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let key = key(source);
        let write = WRITES.fetch_add(1, Ordering::Relaxed);
        let temporary = self
            .dir
            .join(format!(".{key}.{}.{write}", std::process::id()));
        if fs::write(&temporary, &entry).is_ok()
            && fs::rename(&temporary, self.dir.join(key)).is_err()
        {
            let _ = fs::remove_file(&temporary);
        }
    }

    /// Creates the directory, removes those of other rustfmts beside it, and empties it when it
    /// holds more than [`MAX_ENTRIES`].
    fn make_room(&self) {
        if !self.dir.is_dir() {
            if let Some(root) = self.dir.parent()
                && let Ok(others) = fs::read_dir(root)
            {
                for other in others.flatten() {
                    let _ = fs::remove_dir_all(other.path());
                }
            }
            let _ = fs::create_dir_all(&self.dir);
            return;
        }
        let full = fs::read_dir(&self.dir).is_ok_and(|entries| entries.count() > MAX_ENTRIES);
        if full && let Ok(entries) = fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// `$XDG_CACHE_HOME/webop/rustfmt`, else `$HOME/.cache/webop/rustfmt`.
fn default_root() -> Option<PathBuf> {
    let non_empty = |name| std::env::var_os(name).filter(|value| !value.is_empty());
    let cache_home = non_empty("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|home| Path::new(&home).join(".cache")))?;
    Some(cache_home.join("webop").join("rustfmt"))
}

fn key(source: &str) -> String {
    sha256(source.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a rustfmt binary: the cache only reads its metadata.
    fn fake_rustfmt(dir: &Path, contents: &str) -> PathBuf {
        let path = dir.join("rustfmt");
        fs::write(&path, contents).unwrap();
        path
    }

    #[test]
    fn keeps_layouts_and_failures_by_input() {
        let dir = tempfile::tempdir().unwrap();
        let rustfmt = fake_rustfmt(dir.path(), "v1");
        let cache = DiskCache::under(&dir.path().join("cache"), &rustfmt).unwrap();
        assert_eq!(cache.get("fn a(){}\n"), None);
        cache.put("fn a(){}\n", &Layout::Laid("fn a() {}\n".into()));
        cache.put("fn b( {\n", &Layout::Unparsable);
        let again = DiskCache::under(&dir.path().join("cache"), &rustfmt).unwrap();
        assert_eq!(
            again.get("fn a(){}\n"),
            Some(Layout::Laid("fn a() {}\n".into()))
        );
        assert_eq!(again.get("fn b( {\n"), Some(Layout::Unparsable));
        assert_eq!(again.get("fn c(){}\n"), None);
    }

    #[test]
    fn another_rustfmt_starts_afresh_and_removes_the_old_entries() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        let old = fake_rustfmt(dir.path(), "v1");
        let cache = DiskCache::under(&root, &old).unwrap();
        cache.put("fn a(){}\n", &Layout::Laid("fn a() {}\n".into()));
        let new = fake_rustfmt(dir.path(), "version 2");
        let cache = DiskCache::under(&root, &new).unwrap();
        assert_eq!(cache.get("fn a(){}\n"), None);
        cache.put("fn b(){}\n", &Layout::Laid("fn b() {}\n".into()));
        assert_eq!(fs::read_dir(&root).unwrap().count(), 1);
        assert_eq!(
            cache.get("fn b(){}\n"),
            Some(Layout::Laid("fn b() {}\n".into()))
        );
    }

    #[test]
    fn a_full_cache_is_emptied_before_it_grows() {
        let dir = tempfile::tempdir().unwrap();
        let rustfmt = fake_rustfmt(dir.path(), "v1");
        let root = dir.path().join("cache");
        let first = DiskCache::under(&root, &rustfmt).unwrap();
        first.put("fn a(){}\n", &Layout::Laid("fn a() {}\n".into()));
        for n in 0..=MAX_ENTRIES {
            fs::write(first.dir.join(format!("filler{n}")), "L").unwrap();
        }
        let next = DiskCache::under(&root, &rustfmt).unwrap();
        next.put("fn b(){}\n", &Layout::Laid("fn b() {}\n".into()));
        assert_eq!(fs::read_dir(&next.dir).unwrap().count(), 1);
        assert_eq!(next.get("fn a(){}\n"), None);
    }

    #[test]
    fn damaged_entries_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let rustfmt = fake_rustfmt(dir.path(), "v1");
        let cache = DiskCache::under(&dir.path().join("cache"), &rustfmt).unwrap();
        cache.put("x", &Layout::Unparsable);
        fs::write(cache.dir.join(key("fn a(){}\n")), "Xjunk").unwrap();
        assert_eq!(cache.get("fn a(){}\n"), None);
        fs::write(cache.dir.join(key("fn a(){}\n")), "Ujunk").unwrap();
        assert_eq!(cache.get("fn a(){}\n"), None);
    }
}
