//! Helpers shared by the integration tests: running webop, reading trees.

#![allow(dead_code)] // each test crate uses its own subset

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "build_lock.rs"]
mod build_lock;
pub use build_lock::BuildLock;
#[allow(unused_imports)] // the projects and import tests use it
pub use build_lock::pin_to_the_workspace_lock;
#[path = "clippy.rs"]
mod clippy;
#[allow(unused_imports)] // the import tests use it
pub use clippy::linting;
#[path = "project_build.rs"]
mod project_build;
#[allow(unused_imports)] // each test crate uses its own subset
pub use project_build::{
    build_test_and_lint, build_test_offline_and_lint, build_test_offline_and_lint_serving,
    cargo_in, lint, manifests, manifests_with,
};

/// Waits until no other generated project builds (see `build_lock`), then holds that lock for
/// a build of the project at `project`.
pub fn one_build_at_a_time(project: &Path) -> BuildLock {
    build_lock::lock_project(&target_dir(), project)
}

/// Whether `webop args` in `dir` builds a project (`crdgen`): such runs take the build lock.
/// `manifests` outside a project fails before it builds anything, and need not wait.
fn builds(dir: &Path, args: &[&str]) -> bool {
    match args {
        ["import", "kubebuilder", ..] => true,
        ["manifests", ..] => dir.ancestors().any(|d| d.join("PROJECT").is_file()),
        _ => false,
    }
}

/// The `webop` binary under test.
pub fn webop() -> Command {
    Command::new(env!("CARGO_BIN_EXE_webop"))
}

/// Runs `webop args` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    let _build = builds(dir, args).then(|| one_build_at_a_time(dir));
    webop()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("webop runs")
}

/// Runs `webop args` in-process in `dir` and returns its report; panics on failure.
pub fn run_ok(dir: &Path, args: &[&str]) -> String {
    let _build = builds(dir, args).then(|| one_build_at_a_time(dir));
    let mut out = Vec::new();
    let argv = std::iter::once("webop").chain(args.iter().copied());
    if let Err(error) = webop_cli::cli::run(argv, dir, &mut out) {
        panic!("webop {}: {error:#}", args.join(" "));
    }
    String::from_utf8(out).unwrap()
}

/// Every file under `root` (skipping `target/`), by `/`-separated relative path.
pub fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                if relative != "target" {
                    walk(root, &path, out);
                }
            } else {
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// Every file and directory under `root`, with the bytes of files and the permission bits of
/// everything: what "changes no file" compares.
pub fn tree(root: &Path) -> BTreeMap<String, (u32, Option<Vec<u8>>)> {
    use std::os::unix::fs::PermissionsExt;
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (u32, Option<Vec<u8>>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            if path.is_dir() {
                out.insert(relative, (mode, None));
                walk(root, &path, out);
            } else {
                out.insert(relative, (mode, Some(std::fs::read(&path).unwrap())));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The webop workspace (this repository).
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target directory of the workspace, shared with the generated projects that tests build.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
}

/// A new temporary directory holding an empty directory `webapp-operator`.
pub fn project_dir() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("webapp-operator");
    std::fs::create_dir(&dir).unwrap();
    (temp, dir)
}

/// `webop init` of the WebApp operator, in-process.
pub fn init_webapp(dir: &Path) -> String {
    run_ok(
        dir,
        &[
            "init",
            "--domain",
            "example.com",
            "--repo",
            "github.com/example/webapp-operator",
        ],
    )
}

/// The text of the project file `path` under `dir`.
pub fn read(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `create api` of a second kind, `Cache`, next to `create_webapp`'s `WebApp`.
pub const CACHE: &[&str] = &[
    "create",
    "api",
    "--group",
    "app",
    "--version",
    "v1",
    "--kind",
    "Cache",
];

/// `webop create api` of the WebApp kind (`--image` flavour), in-process.
pub fn create_webapp(dir: &Path) -> String {
    run_ok(
        dir,
        &[
            "create",
            "api",
            "--group",
            "app",
            "--version",
            "v1",
            "--kind",
            "WebApp",
            "--image",
            "nginxinc/nginx-unprivileged:1.27",
            "--port",
            "8080",
        ],
    )
}

/// The documents `kubectl kustomize dir` renders; panics with kubectl's message when it fails.
pub fn kustomize(dir: &Path) -> Vec<serde_json::Value> {
    let output = Command::new("kubectl")
        .arg("kustomize")
        .arg(dir)
        .output()
        .expect("kubectl is installed");
    assert!(
        output.status.success(),
        "kubectl kustomize {} failed: {}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    serde_saphyr::from_str_multiple(&text).unwrap()
}

/// Runs `webop args` in `dir`, which must fail and leave the tree as it was; its stderr.
pub fn refused(dir: &Path, args: &[&str]) -> String {
    let before = tree(dir);
    let output = run(dir, args);
    assert!(!output.status.success(), "webop {args:?} succeeded");
    assert_eq!(tree(dir), before, "webop {args:?} changed the tree");
    String::from_utf8(output.stderr).unwrap()
}

/// One scaffold command on `dir` with `templates` (e.g. an older webop's), through the engine
/// as the CLI runs it: planned, the lock added as every command adds it, applied.
pub fn scaffold_step(
    templates: &webop_cli::scaffold::Templates,
    dir: &Path,
    before: Option<&webop_cli::project::Project>,
    after: &webop_cli::project::Project,
    command: webop_cli::scaffolds::Command,
) {
    use webop_cli::scaffold::{self, RealFs};
    use webop_cli::scaffolds::{self, Request};
    let request = Request {
        root: dir,
        before,
        after,
        command,
        force: false,
    };
    let mut plan = scaffolds::plan(&RealFs, templates, &request).unwrap();
    webop_cli::upgrade::record::record(&RealFs, templates, &request, &mut plan).unwrap();
    scaffold::apply(&RealFs, dir, &plan).unwrap();
}

/// Copies the tree `from` into `to`, over what `to` has.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The arguments of a per-kind command: `words` (`["create", "api"]`), then `--group`,
/// `--version` and `--kind` from `gvk`, then `extra`.
pub fn gvk_command<'a>(words: &[&'a str], gvk: [&'a str; 3], extra: &[&'a str]) -> Vec<&'a str> {
    let [group, version, kind] = gvk;
    let named = ["--group", group, "--version", version, "--kind", kind];
    [words, &named[..], extra].concat()
}

/// The trees `actual` and `expected` (as [`files`] reads them) hold the same files, byte for
/// byte; a file that differs is shown as text.
pub fn assert_same_files(actual: &BTreeMap<String, Vec<u8>>, expected: &BTreeMap<String, Vec<u8>>) {
    for (path, bytes) in expected {
        assert_eq!(
            actual.get(path).map(|b| String::from_utf8_lossy(b)),
            Some(String::from_utf8_lossy(bytes)),
            "{path}"
        );
    }
    assert_eq!(
        actual.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
}

/// cert-manager's Issuer CRD, cut to a few fields of its spec: another operator's kind, for
/// `import crd --external` and the webhooks of external kinds.
pub const ISSUER_CRD: &str = include_str!("issuer_crd.yaml");
