//! `kubectl kustomize config/default` builds, and what it builds is what SPEC §2 promises: no
//! wildcard verbs, the restricted security context, metrics over HTTPS on :8443 with the roles
//! that authenticate and authorize scrapers (as kubebuilder v4 ships them), leader election with
//! its role. Needs `kubectl` (with its built-in kustomize).

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{create_webapp, init_webapp, kustomize, project_dir, workspace};

fn find<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind && d["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in the build"))
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Whether `role` has a rule granting `verb` on `resource` of `group`.
fn covers(role: &Value, group: &str, resource: &str, verb: &str) -> bool {
    role["rules"].as_array().into_iter().flatten().any(|r| {
        strings(&r["apiGroups"]).contains(&group)
            && strings(&r["resources"]).contains(&resource)
            && strings(&r["verbs"]).contains(&verb)
    })
}

/// Every RBAC verb of every (Cluster)Role of the build.
fn verbs(docs: &[Value]) -> Vec<&str> {
    docs.iter()
        .filter(|d| d["kind"] == "Role" || d["kind"] == "ClusterRole")
        .flat_map(|d| d["rules"].as_array().into_iter().flatten())
        .flat_map(|rule| strings(&rule["verbs"]))
        .collect()
}

fn check_default_build(docs: &[Value]) {
    for doc in docs
        .iter()
        .filter(|d| d["kind"] != "Namespace" && d["metadata"]["namespace"].is_string())
    {
        assert_eq!(
            doc["metadata"]["namespace"], "webapp-operator-system",
            "{doc}"
        );
    }
    assert!(
        !verbs(docs).contains(&"*"),
        "a wildcard verb in the default build"
    );

    let manager = find(docs, "Deployment", "webapp-operator-controller-manager");
    let pod = &manager["spec"]["template"]["spec"];
    assert_eq!(
        pod["serviceAccountName"],
        "webapp-operator-controller-manager"
    );
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    let container = &pod["containers"][0];
    let security = &container["securityContext"];
    assert_eq!(security["readOnlyRootFilesystem"], true);
    assert_eq!(security["allowPrivilegeEscalation"], false);
    assert_eq!(strings(&security["capabilities"]["drop"]), ["ALL"]);
    let args = strings(&container["args"]);
    for arg in [
        "--metrics-bind-address=:8443",
        "--leader-elect",
        "--health-probe-bind-address=:8081",
        "--log-format=json",
    ] {
        assert!(args.contains(&arg), "{arg} missing from {args:?}");
    }
    // Above the manager's --graceful-shutdown-timeout (30 s), so the kubelet waits for it.
    let grace = pod["terminationGracePeriodSeconds"].as_u64().unwrap();
    assert!(grace > 30, "terminationGracePeriodSeconds {grace}");
    assert_eq!(container["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(container["readinessProbe"]["httpGet"]["path"], "/readyz");

    let metrics = find(
        docs,
        "Service",
        "webapp-operator-controller-manager-metrics-service",
    );
    let port = &metrics["spec"]["ports"][0];
    assert_eq!(
        (&port["name"], &port["port"], &port["targetPort"]),
        (&"https".into(), &8443.into(), &8443.into())
    );
    check_metrics_roles(docs);

    assert_eq!(security["runAsNonRoot"], true);
    assert_eq!(container["livenessProbe"]["httpGet"]["port"], 8081);
    assert_eq!(container["readinessProbe"]["httpGet"]["port"], 8081);

    let election = find(docs, "Role", "webapp-operator-leader-election-role");
    for verb in ["get", "create", "update"] {
        assert!(
            covers(election, "coordination.k8s.io", "leases", verb),
            "leases {verb}"
        );
    }
    // Least privilege: what the election sends, nothing else (no configmaps, no events).
    assert_eq!(
        election["rules"].as_array().unwrap().len(),
        1,
        "{}",
        election["rules"]
    );
    assert_eq!(
        strings(&election["rules"][0]["verbs"]),
        ["get", "create", "update"]
    );
    find(
        docs,
        "RoleBinding",
        "webapp-operator-leader-election-rolebinding",
    );
    find(
        docs,
        "ClusterRoleBinding",
        "webapp-operator-manager-rolebinding",
    );
}

/// The manager may ask the API server to review scrapers' tokens and access; scrapers bound to
/// `metrics-reader` may get `/metrics`.
fn check_metrics_roles(docs: &[Value]) {
    let auth = find(docs, "ClusterRole", "webapp-operator-metrics-auth-role");
    assert!(covers(
        auth,
        "authentication.k8s.io",
        "tokenreviews",
        "create"
    ));
    assert!(covers(
        auth,
        "authorization.k8s.io",
        "subjectaccessreviews",
        "create"
    ));
    let binding = find(
        docs,
        "ClusterRoleBinding",
        "webapp-operator-metrics-auth-rolebinding",
    );
    assert_eq!(
        binding["roleRef"]["name"],
        "webapp-operator-metrics-auth-role"
    );
    let subject = &binding["subjects"][0];
    assert_eq!(
        (&subject["name"], &subject["namespace"]),
        (
            &"webapp-operator-controller-manager".into(),
            &"webapp-operator-system".into()
        )
    );
    let reader = find(docs, "ClusterRole", "webapp-operator-metrics-reader");
    let rule = &reader["rules"][0];
    assert_eq!(strings(&rule["nonResourceURLs"]), ["/metrics"]);
    assert_eq!(strings(&rule["verbs"]), ["get"]);
}

/// `dir`'s `kustomization.yaml` with the lines `from` commented out uncommented.
fn uncomment(dir: &Path, from: &[&str]) {
    let path = dir.join("kustomization.yaml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    for line in from {
        assert!(text.contains(&format!("#{line}\n")), "no #{line} in {text}");
        text = text.replace(&format!("#{line}\n"), &format!("{line}\n"));
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn metrics_with_prometheus_cert_manager_and_a_network_policy_build() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let default = dir.join("config/default");
    uncomment(
        &default,
        &[
            "- ../prometheus",
            "- ../network-policy",
            "- path: cert_metrics_manager_patch.yaml",
            "  target:",
            "    kind: Deployment",
        ],
    );
    uncomment(
        &dir.join("config/prometheus"),
        &[
            "patches:",
            "  - path: monitor_tls_patch.yaml",
            "    target:",
            "      kind: ServiceMonitor",
        ],
    );
    let docs = kustomize(&default);
    let monitor = find(
        &docs,
        "ServiceMonitor",
        "webapp-operator-controller-manager-metrics-monitor",
    );
    let endpoint = &monitor["spec"]["endpoints"][0];
    assert_eq!(
        (&endpoint["port"], &endpoint["scheme"]),
        (&"https".into(), &"https".into())
    );
    assert_eq!(
        endpoint["tlsConfig"]["ca"]["secret"]["name"],
        "metrics-server-cert"
    );
    let policy = find(
        &docs,
        "NetworkPolicy",
        "webapp-operator-allow-metrics-traffic",
    );
    assert_eq!(policy["spec"]["ingress"][0]["ports"][0]["port"], 8443);
    let manager = find(&docs, "Deployment", "webapp-operator-controller-manager");
    let pod = &manager["spec"]["template"]["spec"];
    let args = strings(&pod["containers"][0]["args"]);
    assert!(
        args.contains(&"--metrics-cert-path=/tmp/k8s-metrics-server/metrics-certs"),
        "{args:?}"
    );
    assert_eq!(
        pod["volumes"][0]["secret"]["secretName"],
        "metrics-server-cert"
    );
}

#[test]
fn a_new_project_builds() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    check_default_build(&kustomize(&dir.join("config/default")));
}

/// Issue 24, item 4: right after `create api` (before `make manifests` writes the CRD),
/// `config/default` builds: the CRD is listed once it exists.
#[test]
fn a_project_builds_right_after_create_api() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    check_default_build(&kustomize(&dir.join("config/default")));
}

#[test]
fn the_golden_project_builds() {
    let golden = workspace().join("testdata/webapp-operator");
    let docs = kustomize(&golden.join("config/default"));
    check_default_build(&docs);
    find(&docs, "CustomResourceDefinition", "webapps.app.example.com");
    // The controller's own rules: its children and the events kube-runtime's Recorder writes
    // (events.k8s.io), without wildcards.
    // Exactly the verbs the controller sends (server-side apply creates and patches; caches
    // list and watch; no get, update or delete): the generated tests run it with this role on
    // a real API server, so a missing verb fails them, and a verb too many fails here.
    let manager = find(&docs, "ClusterRole", "webapp-operator-manager-role");
    let mut granted: Vec<(String, Vec<&str>)> = Vec::new();
    for rule in manager["rules"].as_array().unwrap() {
        for group in strings(&rule["apiGroups"]) {
            for resource in strings(&rule["resources"]) {
                granted.push((format!("{group}/{resource}"), strings(&rule["verbs"])));
            }
        }
    }
    granted.sort();
    let expected: Vec<(String, Vec<&str>)> = [
        ("/services", vec!["create", "list", "patch", "watch"]),
        ("app.example.com/webapps", vec!["list", "watch"]),
        ("app.example.com/webapps/finalizers", vec!["update"]),
        ("app.example.com/webapps/status", vec!["patch"]),
        ("apps/deployments", vec!["create", "list", "patch", "watch"]),
        ("events.k8s.io/events", vec!["create", "patch"]),
    ]
    .into_iter()
    .map(|(resource, verbs)| (resource.to_owned(), verbs))
    .collect();
    assert_eq!(granted, expected);
    for rule in manager["rules"].as_array().unwrap() {
        for field in ["apiGroups", "resources", "verbs"] {
            assert!(
                !strings(&rule[field]).contains(&"*"),
                "a wildcard in {rule}"
            );
        }
    }
    let admin = find(&docs, "ClusterRole", "webapp-operator-webapp-admin-role");
    let admin_verbs = strings(&admin["rules"][0]["verbs"]);
    assert!(admin_verbs.contains(&"deletecollection"), "{admin_verbs:?}");
    assert_eq!(
        kustomize(&golden.join("config/samples"))[0]["spec"]["image"],
        "nginxinc/nginx-unprivileged:1.27"
    );
}

#[test]
fn samples_build_after_create_api() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let samples = kustomize(&dir.join("config/samples"));
    assert_eq!(samples.len(), 1);
    assert_eq!(samples[0]["kind"], "WebApp");
    assert_eq!(samples[0]["spec"]["port"], 8080);
}

/// `make build-installer IMG=...` (kubebuilder's target) on a new project with the WebApp API:
/// `webop manifests` (which builds only the API crate) then one `dist/install.yaml` holding
/// everything `make deploy` applies, with the given image, and no change to config/.
#[test]
fn make_build_installer_writes_the_whole_bundle_with_the_image() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let config_before = support::files(&dir.join("config/manager"));
    let image = "registry.example.com/webapp-operator:v0.1.0";
    let build = support::one_build_at_a_time(&dir);
    let output = webop_cli::cli::cargo::shell_environment(&mut Command::new("make"))
        .args(["--no-print-directory", "build-installer"])
        .arg(format!("WEBOP={}", env!("CARGO_BIN_EXE_webop")))
        .arg(format!("IMG={image}"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", support::target_dir())
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("make runs");
    drop(build);
    assert!(
        output.status.success(),
        "make build-installer failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(dir.join("dist/install.yaml")).unwrap();
    let docs = serde_saphyr::from_str_multiple::<Value, Vec<Value>>(&text).unwrap();
    // The same objects as the kustomize build, but for the image.
    let built = kustomize(&dir.join("config/default"));
    assert_eq!(docs.len(), built.len());
    check_default_build(&docs);
    find(&docs, "Namespace", "webapp-operator-system");
    let crd = find(&docs, "CustomResourceDefinition", "webapps.app.example.com");
    assert_eq!(crd["spec"]["names"]["kind"], "WebApp");
    // `webop manifests` wrote the controller's rules from its #[rbac] attributes.
    let manager_role = find(&docs, "ClusterRole", "webapp-operator-manager-role");
    assert!(covers(manager_role, "app.example.com", "webapps", "watch"));
    assert!(covers(manager_role, "apps", "deployments", "patch"));
    let manager = find(&docs, "Deployment", "webapp-operator-controller-manager");
    let images: Vec<&Value> = manager["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["image"])
        .collect();
    assert_eq!(images, [&Value::from(image)]);
    assert!(!text.contains("controller:latest"), "{text}");
    // The image is set in the bundle only: config/manager stays as scaffolded.
    assert_eq!(support::files(&dir.join("config/manager")), config_before);
    // dist/ is build output, which git ignores.
    let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "/dist/"), "{ignore}");
}
