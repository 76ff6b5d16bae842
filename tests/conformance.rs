//! controller-gen conformance: for each case, Rust types with webop's attributes and the YAML
//! controller-gen v0.21 writes for the equivalent Go types (`tests/conformance/<case>/`),
//! compared byte for byte. `WEBOP_BLESS=1` rewrites the expected files.

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

#[path = "conformance/cronjob.rs"]
mod cronjob;
#[path = "conformance/enums.rs"]
mod enums;
#[path = "conformance/external_docs.rs"]
mod external_docs;
#[path = "conformance/gen_foo.rs"]
mod gen_foo;
#[path = "conformance/gen_zoo.rs"]
mod gen_zoo;
#[path = "conformance/immutable.rs"]
mod immutable;
#[path = "conformance/job.rs"]
mod job;
#[path = "conformance/multiple_versions.rs"]
mod multiple_versions;
#[path = "conformance/oneof.rs"]
mod oneof;
#[path = "conformance/webapp.rs"]
mod webapp;

use std::path::Path;

fn check(case: &str, crds: Vec<webop::crd::CustomResourceDefinition>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(case);
    for crd in crds {
        let file = webop::manifests::crd_file(&serde_json::to_value(&crd).unwrap());
        let expected_path = dir.join(file.path.file_name().unwrap());
        if std::env::var_os("WEBOP_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&expected_path, &file.contents).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|err| {
            panic!(
                "{}: {err} (WEBOP_BLESS=1 writes it)",
                expected_path.display()
            )
        });
        assert!(
            expected == file.contents,
            "{case}: {} differs from controller-gen's\n--- expected\n{expected}\n--- webop\n{}",
            expected_path.display(),
            file.contents
        );
    }
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
