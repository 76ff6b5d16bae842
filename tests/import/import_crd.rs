//! `webop import crd` on the command line: what it writes and registers, and what it refuses
//! (a file that is not YAML, a document that is not a CRD, a schema keyword no CRD has, a kind
//! the project has, a types file that exists) without writing anything. The round trip through
//! `webop manifests` is `tests/import/import_round_trip.rs`.

use crate::support;

use std::path::{Path, PathBuf};

use support::{
    build_test_and_lint, create_webapp, gvk_command, manifests, project_dir, run_ok, tree,
    workspace,
};

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

/// An external kind owns nothing outside the API crate: another kind's `create api` then
/// `delete api` give back the tree byte for byte (the samples' kustomization, which the first
/// kind with a sample writes, goes with it).
#[test]
fn an_external_kind_shares_no_file_another_kind_writes() {
    let (_temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "my.domain"]);
    let crd = workspace().join("tests/conformance/gen_zoo/bar.example.com_zoos.yaml");
    import(&dir, &["--external", crd.to_str().unwrap()]).unwrap();
    let imported = tree(&dir);
    create_webapp(&dir);
    assert!(dir.join("config/samples/kustomization.yaml").is_file());
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v1", "WebApp"], &[]),
    );
    assert_eq!(tree(&dir), imported);
}

/// Controllers for kinds the project does not define, as kubebuilder's `create api
/// --resource=false`: Kubernetes' own (k8s-openapi's type, the real group in RBAC, `core: true`)
/// and an external API's (`import crd --external`: it stays external, its RBAC names its
/// group). The project builds, lints and passes its generated tests.
#[test]
fn kubernetes_and_external_kinds_get_controllers_that_build() {
    let (_temp, dir) = project_dir();
    let webop_path = workspace();
    run_ok(
        &dir,
        &[
            "init",
            "--domain",
            "my.domain",
            "--webop-path",
            webop_path.to_str().unwrap(),
        ],
    );
    let crd = workspace().join("tests/conformance/gen_zoo/bar.example.com_zoos.yaml");
    import(&dir, &["--external", crd.to_str().unwrap()]).unwrap();
    let controller = |group: &str, version: &str, kind: &str| {
        run_ok(
            &dir,
            &gvk_command(
                &["create", "api"],
                [group, version, kind],
                &["--resource=false"],
            ),
        )
    };
    controller("apps", "v1", "Deployment");
    controller("core", "v1", "Pod");
    let report = controller("bar", "zoo", "Zoo");
    assert!(
        !report
            .lines()
            .any(|l| l.starts_with("created api/") || l.starts_with("updated api/")),
        "the external kind's types stay as imported: {report}"
    );
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    for entry in [
        "- controller: true\n  core: true\n  group: apps\n  kind: Deployment\n  path: k8s_openapi::api::apps::v1\n",
        "- controller: true\n  core: true\n  group: core\n  kind: Pod\n",
        "controller: true\n  domain: example.com\n  external: true\n  group: bar\n  kind: Zoo\n",
    ] {
        assert!(project.contains(entry), "{entry} in\n{project}");
    }
    let read = |path: &str| std::fs::read_to_string(dir.join(path)).unwrap();
    let deployment = read("src/controller/deployment_controller.rs");
    assert!(
        deployment.contains("use k8s_openapi::api::apps::v1 as appsv1api;"),
        "{deployment}"
    );
    assert!(
        deployment.contains("#[rbac(groups = [\"apps\"], resources = [\"deployments\"]"),
        "{deployment}"
    );
    let pod = read("src/controller/pod_controller.rs");
    assert!(
        pod.contains("#[rbac(groups = [\"\"], resources = [\"pods\"]"),
        "{pod}"
    );
    let zoo = read("src/controller/zoo_controller.rs");
    assert!(
        zoo.contains("#[rbac(groups = [\"bar.example.com\"], resources = [\"zoos\"]"),
        "{zoo}"
    );
    manifests(&dir);
    let role = read("config/rbac/role.yaml");
    assert!(
        role.contains("  - apps\n  resources:\n  - deployments\n"),
        "{role}"
    );
    assert!(
        role.contains("- apiGroups:\n  - \"\"\n  resources:\n  - pods\n"),
        "{role}"
    );
    assert!(
        !dir.join("config/crd/bases")
            .read_dir()
            .is_ok_and(|mut d| d.next().is_some())
    );
    build_test_and_lint(&dir);
}

/// A controller for a kind of Kubernetes' API is refused with a clear error where it cannot be
/// scaffolded, and nothing is written.
#[test]
fn foreign_controllers_are_refused_where_they_cannot_be_scaffolded() {
    let (_temp, dir) = initialised();
    let before = tree(&dir);
    let refused = |path: &str, resource: &str| {
        let mut out = Vec::new();
        let argv = [
            "webop",
            "create",
            "api",
            "--group",
            "cert-manager",
            "--version",
            "v1",
            "--kind",
            "Certificate",
            "--external-api-path",
            path,
            resource,
        ];
        format!(
            "{:#}",
            webop_cli::cli::run(argv, &dir, &mut out).unwrap_err()
        )
    };
    let message = refused("cert-manager::v1", "--resource=false");
    assert!(
        message.contains("cert-manager::v1") && message.contains("Rust module"),
        "{message}"
    );
    let message = refused("cert_manager_types::v1", "--resource=true");
    assert!(message.contains("--resource=false"), "{message}");
    assert_eq!(tree(&dir), before);
}
