//! The second golden project: `testdata/cronjob-operator` is the Rust twin of kubebuilder's
//! CronJob tutorial with its multi-version chapter (`docs/book/src/multiversion-tutorial/
//! testdata/project` of kubebuilder). Its scaffold is what the commands of [`scaffold`] write;
//! the files of [`USER_OWNED`] are the tutorial's code in Rust, written by hand over the
//! scaffold; the rest (`config/crd/bases`, `config/rbac/role.yaml`,
//! `config/webhook/manifests.yaml`) is what `webop manifests --max-desc-len 0` writes from them,
//! as the tutorial's Makefile runs controller-gen with `crd:maxDescLen=0`.
//!
//! `WEBOP_BLESS=1` rewrites the scaffolded and the generated files of the golden (never the
//! user-owned ones).

use crate::support;

use crate::controller_gen;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::{build_test_and_lint, files, gvk_command, manifests_with, run_ok, workspace};

/// The files written by hand over the scaffold: the tutorial's code. The scaffold's version of
/// each is replaced by the golden's before `webop manifests` runs.
const USER_OWNED: &[&str] = &[
    "Cargo.toml",
    "Makefile",
    "api/src/v1/cronjob_types.rs",
    "api/src/v2/cronjob_conversion.rs",
    "api/src/v2/cronjob_types.rs",
    "config/samples/batch_v1_cronjob.yaml",
    "config/samples/batch_v2_cronjob.yaml",
    "src/controller/cronjob_controller.rs",
    "src/jobs.rs",
    "src/lib.rs",
    "src/schedule.rs",
    "src/webhook/v1/cronjob_webhook.rs",
    "tests/cronjob_controller.rs",
    "tests/cronjob_conversion.rs",
    "tests/cronjob_webhook.rs",
];

/// The user-owned files that the scaffold has no version of.
const ADDED_BY_HAND: &[&str] = &["src/jobs.rs", "src/schedule.rs"];

/// Files `webop manifests` writes; before it runs, `config/rbac/role.yaml` is init's placeholder.
fn written_by_manifests(path: &str) -> bool {
    path.starts_with("config/crd/bases/")
        || path == "config/rbac/role.yaml"
        || path == "config/webhook/manifests.yaml"
        // It lists each CRD once `webop manifests` writes it.
        || path == "config/crd/kustomization.yaml"
}

/// Files of the machine or of Cargo, never part of the golden.
fn machine_local(path: &str) -> bool {
    path == ".cargo/config.toml" || path == "Cargo.lock"
}

fn golden_dir() -> PathBuf {
    workspace().join("testdata/cronjob-operator")
}

/// The tutorial's commands, in-process, in a directory named `cronjob-operator`.
fn scaffold() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cronjob-operator");
    std::fs::create_dir(&dir).unwrap();
    let commands: [&[&str]; 5] = [
        &[
            "init",
            "--domain",
            "tutorial.kubebuilder.io",
            "--repo",
            "tutorial.kubebuilder.io/cronjob-operator",
        ],
        &gvk_command(&["create", "api"], ["batch", "v1", "CronJob"], &[]),
        &gvk_command(
            &["create", "api"],
            ["batch", "v2", "CronJob"],
            &["--controller=false"],
        ),
        &gvk_command(
            &["create", "webhook"],
            ["batch", "v1", "CronJob"],
            &["--defaulting", "--programmatic-validation"],
        ),
        &gvk_command(
            &["create", "webhook"],
            ["batch", "v1", "CronJob"],
            &["--conversion", "--spoke", "v2"],
        ),
    ];
    for args in commands {
        run_ok(&dir, args);
    }
    (temp, dir)
}

/// The scaffold with the golden's user-owned files over it, and the workspace's Cargo.lock so
/// that dependencies compile once: the project as its author has it before `make manifests`.
fn project() -> (tempfile::TempDir, PathBuf) {
    let (temp, dir) = scaffold();
    for path in USER_OWNED {
        std::fs::copy(golden_dir().join(path), dir.join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    (temp, dir)
}

fn select(
    files: BTreeMap<String, Vec<u8>>,
    in_scope: &impl Fn(&str) -> bool,
) -> BTreeMap<String, Vec<u8>> {
    files.into_iter().filter(|(p, _)| in_scope(p)).collect()
}

/// Compares the generated files that `in_scope` selects with the golden's, or with
/// `WEBOP_BLESS=1` makes the golden's files in scope exactly the generated ones.
fn compare_or_bless(generated: &Path, in_scope: impl Fn(&str) -> bool) {
    let golden_dir = golden_dir();
    let generated = select(files(generated), &in_scope);
    if std::env::var_os("WEBOP_BLESS").is_some_and(|v| v == "1") {
        for path in select(files(&golden_dir), &in_scope).keys() {
            if !generated.contains_key(path) {
                std::fs::remove_file(golden_dir.join(path)).unwrap();
            }
        }
        for (path, bytes) in &generated {
            let target = golden_dir.join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, bytes).unwrap();
        }
        return;
    }
    let golden = select(files(&golden_dir), &in_scope);
    let mut problems = Vec::new();
    for path in golden.keys().filter(|p| !generated.contains_key(*p)) {
        problems.push(format!("missing: {path} (in the golden, not generated)"));
    }
    for path in generated.keys().filter(|p| !golden.contains_key(*p)) {
        problems.push(format!("extra: {path} (generated, not in the golden)"));
    }
    for (path, bytes) in &generated {
        let Some(expected) = golden.get(path) else {
            continue;
        };
        if expected != bytes {
            let difference = controller_gen::first_difference(
                &String::from_utf8_lossy(bytes),
                &String::from_utf8_lossy(expected),
            );
            problems.push(format!("differs: {path}: {difference}"));
        }
    }
    assert!(
        problems.is_empty(),
        "the generated project differs from testdata/cronjob-operator (WEBOP_BLESS=1 rewrites it):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scaffold_matches_the_golden() {
    let (_temp, dir) = scaffold();
    // Every user-owned file but those added by hand is one the scaffold wrote.
    for path in USER_OWNED.iter().filter(|p| !ADDED_BY_HAND.contains(p)) {
        assert!(dir.join(path).is_file(), "the scaffold has no {path}");
    }
    compare_or_bless(&dir, |p| {
        !USER_OWNED.contains(&p) && !written_by_manifests(p) && !machine_local(p)
    });
}

#[test]
fn the_manifests_match_the_golden() {
    let (_temp, dir) = project();
    manifests_with(&dir, &["--max-desc-len", "0"]);
    compare_or_bless(&dir, |p| !USER_OWNED.contains(&p) && !machine_local(p));
}

#[test]
fn the_generated_project_builds_and_passes_its_tests() {
    let (_temp, dir) = project();
    // As `make test` does: its tests install the CRD of config/crd/bases.
    manifests_with(&dir, &["--max-desc-len", "0"]);
    build_test_and_lint(&dir);
}

/// The Go files of the tutorial's API packages that controller-gen reads.
const TUTORIAL_GO_FILES: &[&str] = &[
    "cronjob_types.go",
    "groupversion_info.go",
    "zz_generated.deepcopy.go",
];

/// The golden's CRD is what controller-gen v0.21 writes with `crd:maxDescLen=0` for the
/// tutorial's Go types (`api/v1`, `api/v2`), byte for byte but for the version annotation.
///
/// The tutorial's Go code is not part of this repository: `WEBOP_CRONJOB_TUTORIAL` names the
/// tutorial's project directory (`docs/book/src/multiversion-tutorial/testdata/project` of a
/// kubebuilder checkout). Its API packages are type-checked against the Kubernetes API of
/// `tests/conformance/go.mod` (k8s.io/api v0.37.2, the version of webop's schemas of the
/// Kubernetes types) rather than the tutorial's own: the tutorial's committed CRD, made with
/// k8s.io/api v0.36.0, lacks the Pod fields that Kubernetes 1.37 added.
#[test]
fn the_crd_equals_controller_gen_on_the_tutorial_types() {
    let Some(tutorial) = std::env::var_os("WEBOP_CRONJOB_TUTORIAL").map(PathBuf::from) else {
        eprintln!(
            "skipped: WEBOP_CRONJOB_TUTORIAL is not set (the directory \
             docs/book/src/multiversion-tutorial/testdata/project of a kubebuilder checkout)"
        );
        return;
    };
    let Some(tool) = controller_gen::tool() else {
        return;
    };
    let module = tempfile::tempdir().unwrap();
    let conformance = workspace().join("tests/conformance");
    let go_mod = std::fs::read_to_string(conformance.join("go.mod")).unwrap();
    let go_mod = go_mod.replacen(
        "module webop.dev/conformance",
        "module tutorial.kubebuilder.io/project",
        1,
    );
    std::fs::write(module.path().join("go.mod"), go_mod).unwrap();
    std::fs::copy(conformance.join("go.sum"), module.path().join("go.sum")).unwrap();
    for version in ["v1", "v2"] {
        let package = module.path().join("api").join(version);
        std::fs::create_dir_all(&package).unwrap();
        for file in TUTORIAL_GO_FILES {
            let source = tutorial.join("api").join(version).join(file);
            std::fs::copy(&source, package.join(file))
                .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        }
    }
    let out = module.path().join("out");
    let output = Command::new(tool)
        .args(["crd:maxDescLen=0", "paths=./api/..."])
        .arg(format!("output:dir={}", out.display()))
        .current_dir(module.path())
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("controller-gen runs");
    assert!(
        output.status.success(),
        "controller-gen failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let name = "batch.tutorial.kubebuilder.io_cronjobs.yaml";
    let oracle = std::fs::read_to_string(out.join(name)).unwrap();
    let oracle = controller_gen::as_webop_writes_it(&oracle);
    let ours = std::fs::read_to_string(golden_dir().join("config/crd/bases").join(name)).unwrap();
    assert!(
        ours == oracle,
        "the golden's CRD differs from controller-gen's: {}",
        controller_gen::first_difference(&ours, &oracle)
    );
}
