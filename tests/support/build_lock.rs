//! One generated project builds at a time. The tests' projects share the workspace's target
//! directory (so that kube and k8s-openapi compile once), and Cargo names a package's artifacts
//! by its name and its path inside its own workspace, which are the same for every
//! `webapp-operator` the tests scaffold: two such builds at once replace each other's
//! libraries, and a test would link or run the other project's (an API crate without the
//! modules its controllers import, or another project's `crdgen`).
//!
//! The lock serializes the builds of every test process, so its hold times are what CI's wall
//! time is made of: each holder appends how long it waited and held to `HOLD_LOG` in the target
//! directory, which `.ci/run` prints sorted.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The file in the target directory that holders append their times to.
pub const HOLD_LOG: &str = "webop-test-builds.log";

/// Held while a generated project builds and its artifacts run; other holders (threads of this
/// test binary, or other processes on `target_dir`) wait.
pub struct BuildLock {
    _file: File,
    log: PathBuf,
    waited: f64,
    acquired: Instant,
}

/// Waits for, then holds, the build lock of `target_dir`.
pub fn lock(target_dir: &Path) -> BuildLock {
    std::fs::create_dir_all(target_dir).unwrap();
    let path = target_dir.join(".webop-test-builds.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let asked = Instant::now();
    file.lock()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BuildLock {
        _file: file,
        log: target_dir.join(HOLD_LOG),
        waited: asked.elapsed().as_secs_f64(),
        acquired: Instant::now(),
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let held = self.acquired.elapsed().as_secs_f64();
        let thread = std::thread::current();
        let holder = thread.name().unwrap_or("?");
        let line = format!("{held:7.1} s held {:7.1} s waited  {holder}\n", self.waited);
        // A line per holder, written at once: appends of other processes do not interleave.
        if let Ok(mut log) = File::options().create(true).append(true).open(&self.log) {
            let _ = log.write_all(line.as_bytes());
        }
    }
}
