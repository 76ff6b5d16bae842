//! `webop import crd` on the command line: what it writes and registers, and what it refuses
//! (a file that is not YAML, a document that is not a CRD, a schema keyword no CRD has, a kind
//! the project has, a types file that exists) without writing anything. The round trip through
//! `webop manifests` is `tests/import_round_trip.rs`.

mod support;

use std::path::{Path, PathBuf};

use support::{project_dir, run_ok, tree, workspace};

fn webapp_crd() -> PathBuf {
    workspace().join("testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml")
}

fn import(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let mut out = Vec::new();
    let argv = ["webop", "import", "crd"]
        .into_iter()
        .chain(args.iter().copied());
    webop_cli::cli::run(argv, dir, &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

fn initialised() -> (tempfile::TempDir, PathBuf) {
    let (temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "example.com"]);
    (temp, dir)
}

#[test]
fn a_crd_becomes_a_kind_of_the_project() {
    let (_temp, dir) = initialised();
    let crd = webapp_crd();
    let report = import(&dir, &[crd.to_str().unwrap()]).unwrap();
    assert!(
        report.contains("created api/src/v1/webapp_types.rs"),
        "{report}"
    );
    assert!(
        report.contains("every schema keyword was written as an attribute"),
        "{report}"
    );
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.contains("- api:\n    crdVersion: v1\n    namespaced: true\n  domain: example.com\n  group: app\n  kind: WebApp\n"),
        "{project}"
    );
    let lib = std::fs::read_to_string(dir.join("api/src/lib.rs")).unwrap();
    assert!(
        lib.contains("pub mod v1;") && lib.contains("v1::WebApp::crd_version(),"),
        "{lib}"
    );
    let types = std::fs::read_to_string(dir.join("api/src/v1/webapp_types.rs")).unwrap();
    assert!(types.contains("pub struct WebAppSpec {"), "{types}");
    assert!(
        !dir.join("src/controller/webapp_controller.rs").exists(),
        "no controller"
    );
}

#[test]
fn a_group_of_another_domain_is_recorded_with_its_domain() {
    let (_temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "other.io"]);
    let crd = workspace().join("tests/conformance/gen_zoo/bar.example.com_zoos.yaml");
    import(&dir, &[crd.to_str().unwrap()]).unwrap();
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.contains("  domain: example.com\n  group: bar\n  kind: Zoo\n"),
        "{project}"
    );
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let (_temp, dir) = initialised();
    let before = tree(&dir);
    let report = import(&dir, &["--dry-run", webapp_crd().to_str().unwrap()]).unwrap();
    assert!(
        report.contains("created api/src/v1/webapp_types.rs"),
        "{report}"
    );
    assert!(report.contains("dry run: no file was written"), "{report}");
    assert_eq!(tree(&dir), before);
}

/// Each bad input is refused with the value and the rule, and the project is left as it was.
#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let (temp, dir) = initialised();
    let write = |name: &str, text: &str| {
        let path = temp.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let webapp = std::fs::read_to_string(webapp_crd()).unwrap();
    let cases = [
        (write("broken.yaml", "spec: [a"), "broken.yaml: not YAML"),
        (
            write(
                "cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
            ),
            r#"a document of apiVersion "v1" and kind "ConfigMap" is not a CustomResourceDefinition"#,
        ),
        (
            write(
                "unknown.yaml",
                &webapp.replace(
                    "                maximum: 10\n",
                    "                maximum: 10\n                maxValue: 3\n",
                ),
            ),
            r#"unknown schema keyword "maxValue" at .spec.replicas"#,
        ),
        (
            write("empty.yaml", "---\n"),
            "holds no CustomResourceDefinition",
        ),
    ];
    let before = tree(&dir);
    for (file, expected) in cases {
        // The good file first: a bad one later in the list still writes nothing.
        let err = import(&dir, &[webapp_crd().to_str().unwrap(), &file]).unwrap_err();
        assert!(format!("{err:#}").contains(expected), "{file}: {err:#}");
        assert_eq!(tree(&dir), before, "{file}");
    }
}

#[test]
fn an_existing_types_file_is_not_overwritten_without_force() {
    let (_temp, dir) = initialised();
    std::fs::create_dir_all(dir.join("api/src/v1")).unwrap();
    std::fs::write(dir.join("api/src/v1/webapp_types.rs"), "// mine\n").unwrap();
    let before = tree(&dir);
    let err = import(&dir, &[webapp_crd().to_str().unwrap()]).unwrap_err();
    assert!(
        format!("{err:#}").contains("api/src/v1/webapp_types.rs exists: refusing to overwrite it"),
        "{err:#}"
    );
    assert_eq!(tree(&dir), before);
    let report = import(&dir, &["--force", webapp_crd().to_str().unwrap()]).unwrap();
    assert!(
        report.contains("overwritten api/src/v1/webapp_types.rs"),
        "{report}"
    );
}

#[test]
fn a_kind_the_project_has_is_refused() {
    let (_temp, dir) = initialised();
    import(&dir, &[webapp_crd().to_str().unwrap()]).unwrap();
    let before = tree(&dir);
    let err = import(&dir, &[webapp_crd().to_str().unwrap()]).unwrap_err();
    assert!(
        format!("{err:#}").contains("the project already has WebApp"),
        "{err:#}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn what_cannot_be_written_is_reported_with_its_path() {
    let (temp, dir) = initialised();
    let webapp = std::fs::read_to_string(webapp_crd()).unwrap();
    let path = temp.path().join("not.yaml");
    std::fs::write(
        &path,
        webapp.replace(
            "                maximum: 10\n",
            "                maximum: 10\n                not:\n                  type: string\n",
        ),
    )
    .unwrap();
    let report = import(&dir, &[path.to_str().unwrap()]).unwrap();
    assert!(
        report.contains("1 schema keyword(s) have no webop attribute:"),
        "{report}"
    );
    assert!(
        report.contains(
            "WebApp v1 .spec.replicas: not: no webop attribute writes it on a field: left out"
        ),
        "{report}"
    );
}

/// `--external`: the types of a kind the project only uses, as kubebuilder's external APIs: in
/// the API crate (`#[resource(skip)]`: no CRD), no roles, sample or CRD kustomization entry, and
/// `external: true` in PROJECT.
#[test]
fn an_external_api_gets_types_but_no_crd() {
    let (_temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "my.domain"]);
    let crd = workspace().join("tests/conformance/gen_zoo/bar.example.com_zoos.yaml");
    let report = import(&dir, &["--external", crd.to_str().unwrap()]).unwrap();
    assert!(
        report.contains("created api/src/zoo/zoo_types.rs"),
        "{report}"
    );
    assert!(!report.contains("config/"), "{report}");
    let types = std::fs::read_to_string(dir.join("api/src/zoo/zoo_types.rs")).unwrap();
    assert!(types.contains("#[resource(skip)]"), "{types}");
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.contains("  domain: example.com\n  external: true\n  group: bar\n  kind: Zoo\n"),
        "{project}"
    );
    let crds = std::fs::read_to_string(dir.join("config/crd/kustomization.yaml")).unwrap();
    assert!(!crds.contains("zoos"), "{crds}");
    // PROJECT reads back.
    webop_cli::project::Project::load(&dir).unwrap();
}
