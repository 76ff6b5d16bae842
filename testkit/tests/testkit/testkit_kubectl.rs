//! kubectl against the testkit on its loopback listener, with validation on: apply (client-side
//! and server-side), get with a CRD's printer columns, explain from the OpenAPI v3 and v2
//! documents, unknown fields refused, delete. Each test skips, saying so, when `kubectl` is not
//! on PATH.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use webop_testkit::ApiServer;

const WEBAPP_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: webapps.app.example.com
spec:
  group: app.example.com
  scope: Namespaced
  names: {kind: WebApp, listKind: WebAppList, plural: webapps, singular: webapp, shortNames: [wa]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Image, type: string, jsonPath: .spec.image}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    schema:
      openAPIV3Schema:
        description: WebApp is the Schema for the webapps API.
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            description: WebAppSpec defines the desired state of WebApp.
            type: object
            required: [image]
            properties:
              image: {type: string, description: The container image the WebApp runs.}
              replicas: {type: integer, format: int32, minimum: 1, maximum: 10, default: 1, description: How many pods run the image.}
          status:
            type: object
            properties:
              availableReplicas: {type: integer, format: int32}
"#;

fn webapp(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: app.example.com/v1\nkind: WebApp\nmetadata:\n  name: {name}\nspec:\n{spec}"
    )
}

fn deployment(replicas: &str, containers: &[&str]) -> String {
    let containers: String = containers
        .iter()
        .map(|name| format!("      - name: {name}\n        image: nginx:1.25\n"))
        .collect();
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  {replicas}\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers:\n{containers}"
    )
}

/// A testkit served on a loopback port, with a kubeconfig and a kubectl cache of its own.
struct Cluster {
    dir: tempfile::TempDir,
    _runtime: tokio::runtime::Runtime,
}

impl Cluster {
    /// `None` (after saying why) when kubectl is not installed.
    fn start() -> Option<Self> {
        if Command::new("kubectl")
            .args(["version", "--client"])
            .output()
            .is_err()
        {
            eprintln!("skipping: kubectl is not on PATH");
            return None;
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let server = ApiServer::new();
        let address = runtime
            .block_on(server.serve_http("127.0.0.1:0".parse().unwrap()))
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("kubeconfig"),
            webop_testkit::kubeconfig(address),
        )
        .unwrap();
        Some(Self {
            dir,
            _runtime: runtime,
        })
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let path = |name: &str| self.dir.path().join(name).display().to_string();
        let mut child = Command::new("kubectl")
            .args([
                "--kubeconfig",
                &path("kubeconfig"),
                "--cache-dir",
                &path("cache"),
            ])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input
            .write_all(stdin.unwrap_or_default().as_bytes())
            .unwrap();
        drop(input);
        child.wait_with_output().unwrap()
    }

    /// Runs kubectl, which must succeed; returns its output.
    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args, None);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "kubectl {args:?} failed: {stderr}");
        String::from_utf8(output.stdout).unwrap()
    }

    /// Runs kubectl, which must fail; returns its error output.
    fn fails(&self, args: &[&str]) -> String {
        let output = self.run(args, None);
        assert!(!output.status.success(), "kubectl {args:?} succeeded");
        String::from_utf8(output.stderr).unwrap()
    }

    /// Writes a manifest into the cluster's directory; returns its path.
    fn manifest(&self, name: &str, yaml: &str) -> String {
        let path: PathBuf = self.dir.path().join(name);
        std::fs::write(&path, yaml).unwrap();
        path.display().to_string()
    }

    /// `kubectl apply` with validation on (kubectl's default, said explicitly).
    fn apply(&self, name: &str, yaml: &str, extra: &[&str]) -> String {
        let path = self.manifest(name, yaml);
        self.ok(&[&["apply", "--validate=strict", "-f", &path], extra].concat())
    }
}

#[test]
fn kubectl_applies_custom_resources_with_validation_and_prints_their_columns() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let crd = cluster.apply("crd.yaml", WEBAPP_CRD, &[]);
    assert_eq!(
        crd,
        "customresourcedefinition.apiextensions.k8s.io/webapps.app.example.com created\n"
    );
    let spec = "  image: nginx:1.25\n  replicas: 2\n";
    let created = cluster.apply("demo.yaml", &webapp("demo", spec), &[]);
    assert_eq!(created, "webapp.app.example.com/demo created\n");

    let table = cluster.ok(&["get", "webapps"]);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["NAME", "IMAGE", "REPLICAS"],
            vec!["demo", "nginx:1.25", "2"]
        ]
    );

    let bad = cluster.manifest(
        "bad.yaml",
        &webapp("bad", "  image: nginx\n  colour: red\n"),
    );
    let refused = cluster.fails(&["apply", "--validate=strict", "-f", &bad]);
    assert!(
        refused.contains(r#"WebApp in version "v1" cannot be handled as a WebApp: strict decoding error: unknown field "spec.colour""#),
        "{refused}"
    );

    let changed = "  image: nginx:1.25\n  replicas: 5\n";
    let configured = cluster.apply("demo.yaml", &webapp("demo", changed), &[]);
    assert_eq!(configured, "webapp.app.example.com/demo configured\n");
    let replicas = cluster.ok(&["get", "wa", "demo", "-o", "jsonpath={.spec.replicas}"]);
    assert_eq!(replicas, "5");

    let path = cluster.manifest("demo.yaml", &webapp("demo", changed));
    let deleted = cluster.ok(&["delete", "-f", &path]);
    assert_eq!(deleted, "webapp.app.example.com \"demo\" deleted\n");
    let gone = cluster.fails(&["get", "webapp", "demo"]);
    assert!(
        gone.contains(r#"webapps.app.example.com "demo" not found"#),
        "{gone}"
    );
}

#[test]
fn kubectl_applies_built_in_kinds_with_validation_and_client_side_merges() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let two = deployment("replicas: 2", &["nginx", "sidecar"]);
    assert_eq!(
        cluster.apply("web.yaml", &two, &[]),
        "deployment.apps/web created\n"
    );

    let typo = deployment("replica: 2", &["nginx"]);
    let path = cluster.manifest("typo.yaml", &typo);
    let refused = cluster.fails(&["apply", "--validate=strict", "-f", &path]);
    // kubectl sends a strategic merge patch; kube-apiserver refuses it showing the patch.
    assert!(
        refused.contains("The request is invalid: patch: Invalid value: \"map[metadata:map[")
            && refused.contains(r#"strict decoding error: unknown field "spec.replica""#),
        "{refused}"
    );

    // The strategic merge patch kubectl computes from the v3 document's merge keys drops the
    // container the manifest no longer lists.
    let one = deployment("replicas: 3", &["nginx"]);
    assert_eq!(
        cluster.apply("web.yaml", &one, &[]),
        "deployment.apps/web configured\n"
    );
    let live = cluster.ok(&[
        "get",
        "deployment",
        "web",
        "-o",
        "jsonpath={.spec.replicas} {.spec.template.spec.containers[*].name}",
    ]);
    assert_eq!(live, "3 nginx");

    // `kubectl create <kind>` sends protobuf, which the testkit does not read; its manifest
    // applies.
    let generated = cluster.ok(&[
        "create",
        "configmap",
        "settings",
        "--from-literal=mode=fast",
        "--dry-run=client",
        "-o",
        "yaml",
    ]);
    assert_eq!(
        cluster.apply("settings.yaml", &generated, &[]),
        "configmap/settings created\n"
    );
    let mode = cluster.ok(&[
        "get",
        "configmap",
        "settings",
        "-o",
        "jsonpath={.data.mode}",
    ]);
    assert_eq!(mode, "fast");
}

#[test]
fn kubectl_server_side_apply_creates_then_changes_a_field_and_reports_conflicts() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    cluster.apply("crd.yaml", WEBAPP_CRD, &[]);
    let first = webapp("ssa", "  image: nginx:1.25\n  replicas: 2\n");
    let created = cluster.apply("ssa.yaml", &first, &["--server-side"]);
    assert_eq!(created, "webapp.app.example.com/ssa serverside-applied\n");
    let second = webapp("ssa", "  image: nginx:1.25\n  replicas: 4\n");
    cluster.apply("ssa.yaml", &second, &["--server-side"]);
    let live = cluster.ok(&[
        "get",
        "webapp",
        "ssa",
        "-o",
        "jsonpath={.spec.replicas} {.metadata.managedFields[*].manager}",
    ]);
    assert_eq!(live, "4 kubectl");

    let other = webapp("ssa", "  image: nginx:1.25\n  replicas: 6\n");
    let path = cluster.manifest("other.yaml", &other);
    let conflict = cluster.fails(&["apply", "--server-side", "--field-manager=ci", "-f", &path]);
    assert!(
        conflict.contains(r#"conflict with "kubectl": .spec.replicas"#),
        "{conflict}"
    );
    let forced = [
        "apply",
        "--server-side",
        "--field-manager=ci",
        "--force-conflicts",
        "-f",
    ];
    cluster.ok(&[&forced[..], &[path.as_str()]].concat());
    let replicas = cluster.ok(&["get", "webapp", "ssa", "-o", "jsonpath={.spec.replicas}"]);
    assert_eq!(replicas, "6");
}

#[test]
fn kubectl_explain_reads_the_openapi_documents() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    cluster.apply("crd.yaml", WEBAPP_CRD, &[]);
    let spec = cluster.ok(&["explain", "webapps.spec"]);
    for line in [
        "KIND:       WebApp",
        "FIELD: spec <Object>",
        "    WebAppSpec defines the desired state of WebApp.",
        "  image\t<string> -required-",
        "    The container image the WebApp runs.",
        "  replicas\t<integer>",
    ] {
        assert!(spec.lines().any(|l| l == line), "no {line:?} in:\n{spec}");
    }
    let replicas = cluster.ok(&["explain", "deployment.spec.replicas"]);
    assert!(replicas.contains("FIELD: replicas <integer>"), "{replicas}");
    assert!(replicas.contains("Number of desired pods."), "{replicas}");
    let metadata = cluster.ok(&["explain", "deployment.spec.template.metadata.labels"]);
    assert!(
        metadata.contains("FIELD: labels <map[string]string>"),
        "{metadata}"
    );

    // `--output plaintext-openapiv2` reads /openapi/v2, which client-go takes as protobuf only.
    let v2 = cluster.ok(&[
        "explain",
        "deployment.spec.replicas",
        "--output",
        "plaintext-openapiv2",
    ]);
    assert!(v2.contains("FIELD:    replicas <integer>"), "{v2}");
    assert!(v2.contains("Number of desired pods."), "{v2}");
}
