//! `webop import kubebuilder`: the contract is that controller-gen's CRDs, role.yaml and webhook
//! configurations for the Go project equal what `make manifests` writes for the imported one,
//! byte for byte, and that the imported project builds and passes its tests (with clippy's
//! warnings denied), as `make test` runs them.
//!
//! The fixture is our own kubebuilder-style project (`testdata/kubebuilder-project`: PROJECT,
//! go.mod, API types with a broad spread of markers and Go constructs, controllers with RBAC
//! markers, webhook markers with non-default arguments, samples); controller-gen
//! (`bin/controller-gen`, see `support/controller_gen.rs`) writes its manifests live.
//! kubebuilder's six reference projects (`../shared/kubebuilder-projects/`, or the directories
//! `WEBOP_KUBEBUILDER_PROJECTS` names) are imported too and compared with their committed
//! config/crd/bases, config/rbac/role.yaml and config/webhook/manifests.yaml; a subset of them
//! (all with `WEBOP_KUBEBUILDER_BUILD=all`) is built, tested and linted.

use crate::controller_gen;
use crate::support;

use std::path::Path;
use std::process::Command;

use controller_gen::{as_webop_writes_it, first_difference};
use support::{build_test_and_lint, files, run_ok, target_dir, workspace};

pub(crate) fn fixture() -> std::path::PathBuf {
    workspace().join("testdata/kubebuilder-project")
}

/// controller-gen on the Go project `go` as kubebuilder's `make manifests` runs it: CRDs, the
/// manager's role and the webhook configurations under config/.
pub(crate) fn make_manifests_with_controller_gen(tool: &Path, go: &Path) {
    let output = Command::new(tool)
        .args([
            "rbac:roleName=manager-role",
            "crd",
            "webhook",
            "paths=./...",
            "output:crd:artifacts:config=config/crd/bases",
            "output:rbac:artifacts:config=config/rbac",
            "output:webhook:artifacts:config=config/webhook",
        ])
        .current_dir(go)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("controller-gen runs");
    assert!(
        output.status.success(),
        "controller-gen failed on {}:\n{}",
        go.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// `make manifests` in the imported project `dir`, with the webop under test: the Makefile
/// carries the Go project's controller-gen options. Its build lints the API crate and crdgen as
/// `build_test_and_lint` does, so that that finds them built.
fn make_manifests(dir: &Path) {
    support::pin_to_the_workspace_lock(dir);
    let _build = support::one_build_at_a_time(dir);
    let mut make = Command::new("make");
    webop_cli::cli::cargo::shell_environment(&mut make);
    let output = support::linting(make, dir)
        .arg("manifests")
        .arg(format!("WEBOP={}", env!("CARGO_BIN_EXE_webop")))
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("make runs");
    assert!(
        output.status.success(),
        "make manifests: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// What the import of one project gave: its report, and the names of the expected files that
/// differ from webop's, with where.
pub(crate) struct Compared {
    pub(crate) report: String,
    pub(crate) differences: Vec<String>,
}

/// Imports `project` into `out`, runs `make manifests`, and compares each of `expected`'s files
/// (`config/crd/bases/*.yaml`, `config/rbac/role.yaml`, `config/webhook/manifests.yaml`) with
/// webop's.
pub(crate) fn import_and_compare(project: &Path, out: &Path, expected: &Path) -> Compared {
    let report = run_ok(
        out.parent().unwrap(),
        &[
            "import",
            "kubebuilder",
            project.to_str().unwrap(),
            out.to_str().unwrap(),
            "--webop-path",
            workspace().to_str().unwrap(),
        ],
    );
    eprintln!("{report}");
    make_manifests(out);
    let mut differences = Vec::new();
    let mut wanted: Vec<String> = std::fs::read_dir(expected.join("config/crd/bases"))
        .unwrap()
        .map(|e| {
            format!(
                "config/crd/bases/{}",
                e.unwrap().file_name().to_string_lossy()
            )
        })
        .collect();
    wanted.sort();
    wanted.push("config/rbac/role.yaml".into());
    if expected.join("config/webhook/manifests.yaml").is_file() {
        wanted.push("config/webhook/manifests.yaml".into());
    }
    for name in wanted {
        let theirs = as_webop_writes_it(&std::fs::read_to_string(expected.join(&name)).unwrap());
        match std::fs::read_to_string(out.join(&name)) {
            Ok(ours) if ours == theirs => eprintln!("{name}: equal"),
            Ok(ours) => differences.push(format!("{name}: {}", first_difference(&ours, &theirs))),
            Err(_) => differences.push(format!("{name}: webop wrote no such file")),
        }
    }
    Compared {
        report,
        differences,
    }
}

#[test]
fn the_fixture_imports_with_controller_gen_s_manifests_and_passes_its_tests() {
    let Some(tool) = controller_gen::tool() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let go = temp.path().join("fleet");
    copy_dir(&fixture(), &go);
    make_manifests_with_controller_gen(&tool, &go);
    let imported = temp.path().join("fleet-rs");
    let compared = import_and_compare(&go, &imported, &go);
    assert!(
        compared.differences.is_empty(),
        "{:#?}",
        compared.differences
    );
    assert!(
        compared
            .report
            .contains("every Go type and marker has a Rust mapping"),
        "{}",
        compared.report
    );
    // The package api/v1's types use: a module of the API crate.
    assert!(
        compared
            .report
            .contains("shared types: api/src/shared.rs (api/shared)"),
        "{}",
        compared.report
    );
    build_test_and_lint(&imported);
}

/// kubebuilder's six reference projects: `../shared/kubebuilder-projects/*` beside the
/// workspace (CI has it), or the directories `WEBOP_KUBEBUILDER_PROJECTS` names
/// (`:`-separated). `None` where neither exists; with `KUBEBUILDER_ASSETS` set (CI) they must.
fn reference_projects() -> Option<Vec<std::path::PathBuf>> {
    if let Some(list) = std::env::var_os("WEBOP_KUBEBUILDER_PROJECTS") {
        return Some(std::env::split_paths(&list).collect());
    }
    let shared = workspace().join("../shared/kubebuilder-projects");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        assert!(
            std::env::var_os("KUBEBUILDER_ASSETS").is_none(),
            "{} is missing: CI has kubebuilder's reference projects there",
            shared.display()
        );
        eprintln!(
            "skipped: no {} and no WEBOP_KUBEBUILDER_PROJECTS",
            shared.display()
        );
        return None;
    };
    let mut projects: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("PROJECT").is_file())
        .collect();
    projects.sort();
    Some(projects)
}

/// The Go project's samples (`config/samples/*.yaml` but the kustomization) checked against the
/// imported CRDs by `webop validate`: each is valid, but for kubebuilder's placeholder samples
/// (`spec:` with only a `TODO(user)` comment, so `spec` is null) of kinds whose spec is required,
/// which the API server refuses with `spec: Required value`, and so must `webop validate`.
#[cfg(feature = "validate")]
fn samples_validate(go_project: &Path, imported: &Path) -> Result<String, String> {
    let mut samples: Vec<std::path::PathBuf> = std::fs::read_dir(go_project.join("config/samples"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    p.extension().is_some_and(|e| e == "yaml")
                        && p.file_name().is_some_and(|n| n != "kustomization.yaml")
                })
                .collect()
        })
        .unwrap_or_default();
    samples.sort();
    let mut wrong = Vec::new();
    let mut report = String::new();
    for sample in samples {
        let text = std::fs::read_to_string(&sample).unwrap();
        let document: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let mut out = Vec::new();
        let argv = ["webop", "validate", sample.to_str().unwrap()];
        let result = webop_cli::cli::run(argv, imported, &mut out);
        let verdict = String::from_utf8(out).unwrap();
        let placeholder = document["spec"].is_null();
        let expected = if placeholder {
            result.is_err() && verdict.contains("spec: Required value")
        } else {
            result.is_ok() && verdict.contains(": valid")
        };
        if !expected {
            wrong.push(verdict.clone());
        }
        report.push_str(&verdict);
    }
    if wrong.is_empty() {
        Ok(report)
    } else {
        Err(wrong.join(""))
    }
}

#[cfg(not(feature = "validate"))]
fn samples_validate(_: &Path, _: &Path) -> Result<String, String> {
    Ok("(samples not validated: the `validate` feature is off)".into())
}

/// kubebuilder's six reference projects each import; `make manifests` on the result writes the
/// CRDs, role.yaml and webhook configurations the project commits; the projects' samples
/// validate against the imported CRDs; and those [`built_here`] build, pass their generated tests
/// and clippy with warnings denied (the same import, so that it is not written and its API crate
/// not compiled twice).
#[test]
fn kubebuilder_reference_projects_import_with_their_committed_manifests_and_build() {
    let Some(projects) = reference_projects() else {
        return;
    };
    let mut failed = Vec::new();
    for project in &projects {
        let temp = tempfile::tempdir().unwrap();
        let imported = temp.path().join("imported");
        let compared = import_and_compare(project, &imported, project);
        eprintln!("{}: {:#?}", project.display(), compared.differences);
        // Webhooks of Kubernetes' and external kinds (project-v4's Pod, Deployment and
        // cert-manager Issuer) import too: no difference is let pass.
        if !compared.differences.is_empty() {
            failed.push((project.clone(), compared.differences.clone()));
        }
        match samples_validate(project, &imported) {
            Ok(report) => eprintln!("{report}"),
            Err(error) => failed.push((project.clone(), vec![error])),
        }
        if built_here(project) {
            build_test_and_lint(&imported);
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The projects of [`reference_projects`] whose imports are built here: every one with
/// `WEBOP_KUBEBUILDER_BUILD=all` or `WEBOP_KUBEBUILDER_PROJECTS`; else, to keep CI's budget (a
/// build, its tests and clippy take minutes each), the two tutorials a kubebuilder user starts
/// from: getting-started (the deploy-image Memcached) and the CronJob tutorial (webhooks).
/// multiversion-tutorial builds and passes with its conversion's tests ignored until its Go
/// conversion of `spec.schedule` is ported (the import lists it), so it adds little here.
fn built_here(project: &Path) -> bool {
    std::env::var("WEBOP_KUBEBUILDER_BUILD").is_ok_and(|v| v == "all")
        || std::env::var_os("WEBOP_KUBEBUILDER_PROJECTS").is_some()
        || project.ends_with("book-getting-started")
        || project.ends_with("book-cronjob-tutorial")
}

fn refused(project: &Path) -> String {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("out");
    let mut report = Vec::new();
    let argv = [
        "webop",
        "import",
        "kubebuilder",
        project.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    let error =
        webop_cli::cli::run(argv, temp.path(), &mut report).expect_err("the import is refused");
    assert!(files(temp.path()).is_empty(), "nothing is written");
    format!("{error:#}")
}

#[test]
fn bad_input_is_a_clear_error_that_writes_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let message = refused(temp.path());
    assert!(
        message.contains("is not a kubebuilder project"),
        "{message}"
    );

    let broken = temp.path().join("broken");
    copy_dir(&fixture(), &broken);
    std::fs::write(
        broken.join("api/v1/harbor_types.go"),
        "package v1\n\ntype Harbor struct {\n\tSpec string `json:\"spec\"`\n",
    )
    .unwrap();
    let message = refused(&broken);
    assert!(
        message.contains("api/v1/harbor_types.go:") && message.contains("does not parse"),
        "{message}"
    );

    let unknown = temp.path().join("unknown");
    copy_dir(&fixture(), &unknown);
    let types = unknown.join("api/v1/harbor_types.go");
    let text = std::fs::read_to_string(&types).unwrap().replace(
        "// +kubebuilder:validation:MinItems=1",
        "// +kubebuilder:validation:MinItem=1",
    );
    std::fs::write(&types, text).unwrap();
    let message = refused(&unknown);
    assert!(
        message.contains("+kubebuilder:validation:MinItem=1")
            && message.contains("controller-gen has no such marker"),
        "{message}"
    );
}
