//! The control plane's own directory (its certificates and keys, etcd's data, the audit log),
//! private to the user and removed when the control plane is dropped.
//!
//! Not the tempfile crate: it turns on fastrand's `default` and rustix's `fs` features, which a
//! generated operator's `cargo build` does not, so its `cargo test` compiled clap, kube-runtime,
//! kube and webop a second time for the test build.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A directory of its own under the system's temporary directory.
#[derive(Debug)]
pub(crate) struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Creates `<temp>/<prefix><pid>-<n>-<nanos>`, readable by its owner alone. `create_dir`
    /// fails on a name that exists, so two processes never share one.
    pub(crate) fn new(prefix: &str) -> io::Result<Self> {
        static CREATED: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        let mut last_error = None;
        for _ in 0..16 {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.subsec_nanos());
            let n = CREATED.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("{prefix}{}-{n}-{nanos:x}", std::process::id()));
            match builder.create(&path) {
                Ok(()) => return Ok(Self { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_error = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last_error.expect("sixteen attempts"))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_is_new_private_and_gone_when_dropped() {
        let first = ScratchDir::new("webop-scratch-test-").unwrap();
        let second = ScratchDir::new("webop-scratch-test-").unwrap();
        assert_ne!(first.path(), second.path());
        std::fs::write(first.path().join("file"), "x").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(first.path())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let path = first.path().to_owned();
        drop(first);
        assert!(!path.exists());
        assert!(second.path().is_dir());
    }
}
