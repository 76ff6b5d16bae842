//! One generated project builds at a time. The tests' projects share the workspace's target
//! directory (so that kube and k8s-openapi compile once), and Cargo names a package's artifacts
//! by its name and its path inside its own workspace, which are the same for every
//! `webapp-operator` the tests scaffold: two such builds at once replace each other's
//! libraries, and a test would link or run the other project's (an API crate without the
//! modules its controllers import, or another project's `crdgen`).

use std::fs::File;
use std::path::Path;

/// Held while a generated project builds and its artifacts run; other holders (threads of this
/// test binary, or other processes on `target_dir`) wait.
pub struct BuildLock(#[allow(dead_code)] File);

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
    file.lock()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BuildLock(file)
}
