//! controller-gen is the oracle: it generates each conformance case's YAML from the case's Go
//! source (`tests/conformance/<case>/*.go`, the Go module `webop.dev/conformance`), and the files
//! webop wrote must be the same bytes.
//!
//! webop's files are the committed ones: `tests/manifests/conformance.rs` asserts that webop still writes
//! `tests/conformance/<case>/*.yaml`, and `tests/projects/golden.rs` that it still writes the golden
//! project (`testdata/webapp-operator/`), whose CRD and `role.yaml` are checked here against the
//! webapp case's Go source and the operator's RBAC markers.
//!
//! The one line allowed to differ is the version annotation, which names the tool that wrote the
//! file. Where controller-gen is found: `support/controller_gen.rs`. Go and the Go module proxy
//! (or a filled module cache) are needed to load the Go packages.

use crate::controller_gen;

use std::path::Path;
use std::process::Command;

use controller_gen::{as_webop_writes_it, first_difference};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What controller-gen writes, run in the Go module with `generators` on the packages below
/// `package_dir`: file name → contents.
fn run_controller_gen(
    tool: &Path,
    run: &str,
    generators: &[&str],
    package_dir: &str,
) -> Vec<(String, String)> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("controller-gen-oracle")
        .join(run);
    if out.exists() {
        std::fs::remove_dir_all(&out).unwrap();
    }
    std::fs::create_dir_all(&out).unwrap();
    let output = Command::new(tool)
        .args(generators)
        .arg(format!("paths=./{package_dir}/..."))
        .arg(format!("output:dir={}", out.display()))
        .current_dir(repo().join("tests/conformance"))
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("controller-gen runs");
    assert!(
        output.status.success(),
        "{run}: controller-gen {generators:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut files: Vec<(String, String)> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Runs controller-gen for `run` and compares each file it writes with webop's (`expected`: file
/// name → path of webop's file, relative to the repository). controller-gen must write exactly
/// those files.
fn check(run: &str, generators: &[&str], package_dir: &str, expected: &[(&str, &str)]) {
    let Some(tool) = controller_gen::tool() else {
        return;
    };
    let written = run_controller_gen(&tool, run, generators, package_dir);
    let names: Vec<&str> = written.iter().map(|(name, _)| name.as_str()).collect();
    let mut expected_names: Vec<&str> = expected.iter().map(|(name, _)| *name).collect();
    expected_names.sort_unstable();
    expected_names.dedup();
    assert_eq!(
        names, expected_names,
        "{run}: the files controller-gen writes"
    );
    let mut failures = Vec::new();
    for (name, ours) in expected {
        let oracle = as_webop_writes_it(&written.iter().find(|(n, _)| n == name).unwrap().1);
        let ours_path = repo().join(ours);
        let webop = std::fs::read_to_string(&ours_path)
            .unwrap_or_else(|err| panic!("{}: {err}", ours_path.display()));
        if webop != oracle {
            let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("controller-gen-oracle")
                .join(run)
                .join(format!("{name}.as-webop-writes-it"));
            std::fs::write(&path, &oracle).unwrap();
            failures.push(format!(
                "{ours} differs from controller-gen's {name} (written to {}); {}",
                path.display(),
                first_difference(&webop, &oracle)
            ));
        }
    }
    assert!(failures.is_empty(), "{run}:\n{}", failures.join("\n"));
}

/// A case whose one CRD file is committed under `tests/conformance/<case>/`.
macro_rules! crd_case {
    ($case:ident, $file:literal) => {
        crd_case!($case, ["crd"], $file);
    };
    ($case:ident, [$($generator:literal),*], $file:literal) => {
        #[test]
        fn $case() {
            let case = stringify!($case);
            check(
                case,
                &[$($generator),*],
                case,
                &[($file, &format!("tests/conformance/{case}/{}", $file))],
            );
        }
    };
}

// controller-tools' testdata rejects floats unless allowed; the cronjob case has two.
crd_case!(
    cronjob,
    ["crd:allowDangerousTypes=true"],
    "testdata.kubebuilder.io_cronjobs.yaml"
);
crd_case!(enums, "testdata.kubebuilder.io_enums.yaml");
crd_case!(external_docs, "testdata.kubebuilder.io_externaldocs.yaml");
crd_case!(gen_foo, "bar.example.com_foos.yaml");
crd_case!(gen_zoo, "bar.example.com_zoos.yaml");
crd_case!(immutable, "testdata.kubebuilder.io_immutabletypes.yaml");
crd_case!(job, "testdata.kubebuilder.io_jobs.yaml");
crd_case!(k8s_types, "batch.example.com_workers.yaml");
crd_case!(
    multiple_versions,
    "testdata.kubebuilder.io_versionedresources.yaml"
);
crd_case!(oneof, "testdata.kubebuilder.io_oneofs.yaml");
crd_case!(plural, "plural.example.com_testquotas.yaml");

/// `webop manifests --max-desc-len 50` is `crd:maxDescLen=50`, on gen_foo's types.
#[test]
fn gen_foo_max_desc_len() {
    check(
        "gen_foo_maxdesclen",
        &["crd:maxDescLen=50"],
        "gen_foo",
        &[(
            "bar.example.com_foos.yaml",
            "tests/conformance/gen_foo_maxdesclen/bar.example.com_foos.yaml",
        )],
    );
}

#[test]
fn rbac() {
    check(
        "rbac",
        &["rbac:roleName=manager-role"],
        "rbac",
        &[("role.yaml", "tests/conformance/rbac/role.yaml")],
    );
}

#[test]
fn webhook() {
    check(
        "webhook",
        &["webhook"],
        "webhook",
        &[("manifests.yaml", "tests/conformance/webhook/manifests.yaml")],
    );
}

/// The webapp case, and the golden project's CRD and role: its API is the webapp case's, its
/// reconciler's `#[rbac]` rules are the Go package's `+kubebuilder:rbac` markers.
#[test]
fn webapp() {
    check(
        "webapp",
        &["crd", "rbac:roleName=manager-role"],
        "webapp",
        &[
            (
                "app.example.com_webapps.yaml",
                "tests/conformance/webapp/app.example.com_webapps.yaml",
            ),
            (
                "app.example.com_webapps.yaml",
                "testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml",
            ),
            (
                "role.yaml",
                "testdata/webapp-operator/config/rbac/role.yaml",
            ),
        ],
    );
}
