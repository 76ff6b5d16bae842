//! `webop validate`: custom resources checked offline with the API server's messages, and those
//! messages compared with a real kube-apiserver's (when `KUBEBUILDER_ASSETS` is set).

use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use kube::api::{Api, DynamicObject, PostParams};
use support::webop;
use webop_envtest::{Backend, Environment};

fn crd_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml")
}

const SAMPLES: &str = "\
apiVersion: app.example.com/v1
kind: WebApp
metadata:
  name: good
spec:
  image: nginx:1.25
---
apiVersion: app.example.com/v1
kind: WebApp
metadata:
  name: bad
spec:
  image: nginx:1.25
  replicas: 11
  colour: blue
---
apiVersion: app.example.com/v2
kind: WebApp
metadata:
  name: later
";

fn validate(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = webop()
        .arg("validate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

const REPLICAS: &str = "WebApp.app.example.com \"bad\" is invalid: spec.replicas: Invalid value: 11: \
                        spec.replicas in body should be less than or equal to 10";

#[test]
fn each_document_gets_its_verdict_and_a_refusal_fails_the_run() {
    let crd = crd_file();
    let (ok, out, err) = validate(&["--crd", crd.to_str().unwrap(), "-"], SAMPLES);
    assert!(!ok, "{out}");
    assert!(
        out.contains("<stdin> (document 1): WebApp good: valid"),
        "{out}"
    );
    assert!(
        out.contains(&format!("<stdin> (document 2): WebApp bad: {REPLICAS}")),
        "{out}"
    );
    assert!(
        out.contains("<stdin> (document 3): WebApp later: no CRD serves kind \"WebApp\" of apiVersion \"app.example.com/v2\""),
        "{out}"
    );
    assert!(err.contains("2 document(s) would be refused"), "{err}");

    let good = SAMPLES.split("---\n").next().unwrap();
    let (ok, out, _) = validate(
        &["--crd", crd.to_str().unwrap(), "--show-defaults", "-"],
        good,
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("  replicas: 1\n") && out.contains("  port: 8080\n"),
        "{out}"
    );

    let unknown = "apiVersion: app.example.com/v1\nkind: WebApp\nmetadata:\n  name: x\nspec:\n  image: a\n  colour: blue\n";
    let (ok, out, _) = validate(&["--crd", crd.to_str().unwrap(), "--strict", "-"], unknown);
    assert!(
        !ok && out.contains("unknown field \"spec.colour\""),
        "{out}"
    );
}

#[test]
fn the_golden_projects_sample_is_valid_against_its_own_crds() {
    let project = crd_file().ancestors().nth(4).unwrap().to_owned();
    let output = webop()
        .args(["validate", "config/samples/app_v1_webapp.yaml"])
        .current_dir(&project)
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{out}");
    assert_eq!(
        out,
        "config/samples/app_v1_webapp.yaml: WebApp webapp-sample: valid\n"
    );
}

#[test]
fn bad_input_is_named() {
    let (ok, _, err) = validate(&["--crd", "Cargo.toml", "-"], "");
    assert!(
        !ok && err.contains("Cargo.toml is not YAML or JSON"),
        "{err}"
    );
    let crd = crd_file();
    let (ok, _, err) = validate(&["--crd", crd.to_str().unwrap(), "-"], "a: [");
    assert!(!ok && err.contains("<stdin> is not YAML or JSON"), "{err}");
    let outside = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_webop"))
        .args(["validate", "sample.yaml"])
        .current_dir(outside.path())
        .output()
        .unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        !output.status.success() && err.contains("pass --crd FILE outside a webop project"),
        "{err}"
    );
}

/// The refusal `webop validate` prints is the one a real kube-apiserver gives for the same
/// document (a dry-run create).
#[tokio::test]
async fn the_messages_are_a_real_api_servers() {
    let Some(assets) = webop_envtest::Assets::from_env() else {
        eprintln!("skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets builds the binaries)");
        return;
    };
    let env = Environment::builder()
        .backend(Backend::Real(assets))
        .crd_dir(crd_file().parent().unwrap())
        .start()
        .await
        .unwrap();
    let webapps = kube::discovery::ApiResource {
        group: "app.example.com".into(),
        version: "v1".into(),
        api_version: "app.example.com/v1".into(),
        kind: "WebApp".into(),
        plural: "webapps".into(),
    };
    let api: Api<DynamicObject> = Api::namespaced_with(env.client(), "default", &webapps);
    let crd = crd_file();
    for document in [
        "apiVersion: app.example.com/v1\nkind: WebApp\nmetadata:\n  name: bad\nspec:\n  image: a\n  replicas: 11\n  port: 0\n",
        "apiVersion: app.example.com/v1\nkind: WebApp\nmetadata:\n  name: web.app\nspec:\n  image: a\n",
        "apiVersion: app.example.com/v1\nkind: WebApp\nmetadata:\n  name: bad\nspec:\n  replicas: 2\n",
    ] {
        let object: DynamicObject = serde_saphyr::from_str(document).unwrap();
        let params = PostParams {
            dry_run: true,
            field_manager: None,
        };
        let real = match api.create(&params, &object).await {
            Err(kube::Error::Api(status)) => status.message,
            other => panic!("the real server took {document}: {other:?}"),
        };
        let (ok, out, _) = validate(&["--crd", crd.to_str().unwrap(), "-"], document);
        assert!(!ok);
        let ours = out.trim_end();
        let ours = &ours[ours.len().saturating_sub(real.len())..];
        assert_eq!(
            errors_in_any_order(ours),
            errors_in_any_order(&real),
            "webop: {out}\nkube-apiserver: {real}"
        );
    }
}

/// A refusal with its list of errors sorted: kube-apiserver lists the errors of an object's
/// properties in Go's map order, which changes from one request to the next
/// (kube-openapi's object validator ranges over the properties), where webop sorts them.
fn errors_in_any_order(message: &str) -> String {
    let Some((head, list)) = message.split_once('[') else {
        return message.to_owned();
    };
    let Some(list) = list.strip_suffix(']') else {
        return message.to_owned();
    };
    let mut errors: Vec<&str> = list.split(", ").collect();
    errors.sort_unstable();
    format!("{head}[{}]", errors.join(", "))
}
