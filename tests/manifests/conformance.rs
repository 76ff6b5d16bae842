//! controller-gen conformance: for each case, Rust types with webop's attributes and the YAML
//! controller-gen v0.21 writes for the equivalent Go types (`tests/conformance/<case>/`),
//! compared byte for byte. `WEBOP_BLESS=1` rewrites the expected files.
//!
//! Each case holds its Go source (`tests/conformance/<case>/**/*.go`, one Go module for all);
//! `tests/manifests/controller_gen_oracle.rs` runs controller-gen on it and checks that the expected files
//! are what controller-gen writes: a blessed difference from controller-gen fails there.
//!
//! Cases from controller-tools' `pkg/crd/testdata`: `cronjob` (with `unserved` and
//! `deprecated`), `job`, `oneof`, `enums`, `external_docs`, `immutable`, `multiple_versions`,
//! `gen_foo` (also with `maxDescLen=50`), `gen_zoo`, `plural`; from `pkg/rbac/testdata`: `rbac`.
//! The seed tutorial's API: `webapp`. Types of k8s.io/api under a kind's fields: `k8s_types`.
//!
//! Not here, having no Rust equivalent:
//! - `nogroup`: a CRD in the core group (`+groupName=`); the API server refuses it (a CRD's name
//!   is `<plural>.<group>`).
//! - `internal_version`: a package marked `+kubebuilder:skip`, which yields nothing (in Rust
//!   `#[resource(skip)]`, unit-tested in `webop::crd`).
//! - `iface` (an `any` field: in Rust a type without `Schema`, refused by the compiler) and the
//!   error cases `enum_error` (`+k8s:enum` on a field: a Rust enum is a type), `oneof_error` (a nested
//!   path, covered by `tests/ui/attributes/fail/one_of_unknown_field.rs`),
//!   `wrong_annotation_format` and `wrong_title_format` (compile errors in
//!   `tests/ui/attributes/fail/metadata_not_key_value.rs` and `title_not_a_string.rs`).

use crate::{
    cronjob, enums, external_docs, gen_foo, gen_zoo, immutable, job, k8s_types, multiple_versions,
    oneof, plural, webapp,
};

use std::path::{Path, PathBuf};

fn case_dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(case)
}

/// Compares `contents` with the expected file `name` of `case` (or writes it, with
/// `WEBOP_BLESS=1`).
fn compare(case: &str, name: &str, contents: &str) {
    let expected_path = case_dir(case).join(name);
    if std::env::var_os("WEBOP_BLESS").is_some() {
        std::fs::create_dir_all(case_dir(case)).unwrap();
        std::fs::write(&expected_path, contents).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|err| {
        panic!(
            "{}: {err} (WEBOP_BLESS=1 writes it)",
            expected_path.display()
        )
    });
    assert!(
        expected == contents,
        "{case}: {} differs from controller-gen's\n--- expected\n{expected}\n--- webop\n{contents}",
        expected_path.display(),
    );
}

/// The YAML files of a case's directory, so an expected file no CRD produces is noticed.
fn yaml_files(case: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(case_dir(case))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".yaml"))
        .collect();
    names.sort();
    names
}

fn check(case: &str, crds: Vec<webop::crd::CustomResourceDefinition>) {
    let mut names = Vec::new();
    for crd in crds {
        let file = webop::manifests::crd_file(&serde_json::to_value(&crd).unwrap());
        let name = file.path.file_name().unwrap().to_str().unwrap().to_owned();
        compare(case, &name, &file.contents);
        names.push(name);
    }
    names.sort();
    assert_eq!(yaml_files(case), names, "{case}: expected files");
}

/// controller-tools' RBAC testdata: the `#[rbac]` rules of `rbac/controller.rs`, collected as
/// `webop manifests` collects them, into `config/rbac/role.yaml`.
#[test]
fn rbac() {
    let rules = webop::rbac::rules_in_dir(&case_dir("rbac")).unwrap();
    assert_eq!(rules.len(), 41, "every #[rbac] of rbac/controller.rs");
    compare(
        "rbac",
        "role.yaml",
        &webop::manifests::role_file(&rules).contents,
    );
}

/// Admission webhooks: the `#[webhook]`s of `webhook/webhook.rs`, collected as `webop
/// manifests` collects them, into `config/webhook/manifests.yaml`.
#[test]
fn webhook() {
    let found = webop::webhook::webhooks_in_dirs(&[case_dir("webhook")]).unwrap();
    assert_eq!(
        found.webhooks.len(),
        5,
        "every #[webhook] of webhook/webhook.rs"
    );
    let file = webop::manifests::webhook_file(&found.webhooks, &found.configurations)
        .unwrap()
        .expect("webhooks make a file");
    compare("webhook", "manifests.yaml", &file.contents);
}

#[test]
fn webapp() {
    check("webapp", webapp::crds());
}

#[test]
fn enums() {
    check("enums", enums::crds());
}

#[test]
fn external_docs() {
    check("external_docs", external_docs::crds());
}

#[test]
fn immutable() {
    check("immutable", immutable::crds());
}

#[test]
fn oneof() {
    check("oneof", oneof::crds());
}

#[test]
fn gen_foo() {
    check("gen_foo", gen_foo::crds());
}

/// controller-gen's `crd:maxDescLen=50` (`webop manifests --max-desc-len 50`) on the same types.
#[test]
fn gen_foo_max_desc_len() {
    let crds = gen_foo::crds()
        .into_iter()
        .map(|crd| {
            let mut value = serde_json::to_value(crd).unwrap();
            webop::manifests::truncate_descriptions(&mut value, 50);
            serde_json::from_value(value).unwrap()
        })
        .collect();
    check("gen_foo_maxdesclen", crds);
}

#[test]
fn gen_zoo() {
    check("gen_zoo", gen_zoo::crds());
}

#[test]
fn multiple_versions() {
    check("multiple_versions", multiple_versions::crds());
}

#[test]
fn cronjob() {
    check("cronjob", cronjob::crds());
}

#[test]
fn job() {
    check("job", job::crds());
}

#[test]
fn k8s_types() {
    check("k8s_types", k8s_types::crds());
}

#[test]
fn plural() {
    check("plural", plural::crds());
}
