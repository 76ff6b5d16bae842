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

/// Gives the project `dir` the workspace's Cargo.lock unless it has one. A project that
/// resolves its own picks the newest versions of the registry (a newer http or pin-project-lite),
/// and every crate above them (tokio, hyper, kube, webop) would compile once more for it in the
/// shared target directory.
pub fn pin_to_the_workspace_lock(dir: &Path) {
    let lock = dir.join("Cargo.lock");
    if dir.join("Cargo.toml").is_file() && !lock.exists() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
        std::fs::copy(workspace, lock).expect("copy the workspace's Cargo.lock");
    }
}

/// The file in the target directory that holders append their times to.
pub const HOLD_LOG: &str = "webop-test-builds.log";

/// The file in the target directory that the steps of a project's build append their times to.
pub const STEP_LOG: &str = "webop-test-build-steps.log";

/// Appends how long `step` of the current test took to [`STEP_LOG`] in `target_dir`.
pub fn log_step(target_dir: &Path, step: &str, took: std::time::Duration) {
    let thread = std::thread::current();
    let line = format!(
        "{:7.1} s  {step}  ({})\n",
        took.as_secs_f64(),
        thread.name().unwrap_or("?")
    );
    append(&target_dir.join(STEP_LOG), &line);
}

/// Appends `line` at once: appends of other processes do not interleave.
fn append(log: &Path, line: &str) {
    if let Ok(mut log) = File::options().create(true).append(true).open(log) {
        let _ = log.write_all(line.as_bytes());
    }
}

/// Held while a generated project builds and its artifacts run; other holders (threads of this
/// test binary, or other processes on `target_dir`) wait.
pub struct BuildLock {
    _file: File,
    log: PathBuf,
    waited: f64,
    acquired: Instant,
}

/// The file in the target directory that names the project whose build last held the lock.
const LAST_PROJECT: &str = ".webop-test-builds.last-project";

/// [`lock`], for a build of the project at `project`. Every project the tests generate is
/// `webapp-operator` with its `webapp-operator-api`, so Cargo gives their artifacts and
/// fingerprints the same names, and takes a project's crates for built when its sources are older
/// than those artifacts: a project written while another one built would link or run the
/// other's (its `crdgen`, its API library). So when the last project to build here was another
/// one, this one's files are marked as changed now, and its own crates build again. Only a Cargo
/// project's: a directory that holds one being written (`import kubebuilder`'s) may hold a Go
/// project whose Makefile goes by its files' times.
pub fn lock_project(target_dir: &Path, project: &Path) -> BuildLock {
    let lock = lock(target_dir);
    let last = target_dir.join(LAST_PROJECT);
    let name = project.to_string_lossy();
    if std::fs::read_to_string(&last).ok().as_deref() != Some(&*name) {
        if project.join("Cargo.toml").is_file() {
            mark_changed(project);
        }
        let _ = std::fs::write(&last, name.as_bytes());
    }
    lock
}

/// Sets the modification time of every file under `dir` (but `target/` and `.git/`) to now.
fn mark_changed(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let skipped = matches!(entry.file_name().to_str(), Some("target" | ".git"));
        if kind.is_dir() && !skipped {
            mark_changed(&path);
        } else if kind.is_file()
            && let Ok(file) = File::open(&path)
        {
            let _ = file.set_modified(now);
        }
    }
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
        append(&self.log, &line);
    }
}
