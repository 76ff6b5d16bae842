//! `kubectl kustomize config/default` builds, and what it builds is what SPEC §2 promises: no
//! wildcard verbs, the restricted security context, metrics over plain HTTP on :8080, leader
//! election with its role. Needs `kubectl` (with its built-in kustomize).

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{create_webapp, init_webapp, project_dir, workspace};

/// The documents `kubectl kustomize dir` renders.
fn kustomize(dir: &Path) -> Vec<Value> {
    let output = Command::new("kubectl")
        .args(["kustomize"])
        .arg(dir)
        .output()
        .expect("kubectl is installed");
    assert!(
        output.status.success(),
        "kubectl kustomize {} failed: {}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    serde_saphyr::from_str_multiple::<Value, Vec<Value>>(&text).unwrap()
}

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
        "--metrics-bind-address=:8080",
        "--leader-elect",
        "--health-probe-bind-address=:8081",
    ] {
        assert!(args.contains(&arg), "{arg} missing from {args:?}");
    }
    assert_eq!(container["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(container["readinessProbe"]["httpGet"]["path"], "/readyz");

    let metrics = find(
        docs,
        "Service",
        "webapp-operator-controller-manager-metrics-service",
    );
    assert_eq!(metrics["spec"]["ports"][0]["port"], 8080);

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
    assert!(covers(election, "", "events", "create") && covers(election, "", "events", "patch"));
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

#[test]
fn a_new_project_builds() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
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
    let manager = find(&docs, "ClusterRole", "webapp-operator-manager-role");
    for (group, resource, verb) in [
        ("apps", "deployments", "patch"),
        ("", "services", "patch"),
        ("app.example.com", "webapps/status", "patch"),
        ("events.k8s.io", "events", "create"),
        ("events.k8s.io", "events", "patch"),
    ] {
        assert!(
            covers(manager, group, resource, verb),
            "manager-role lacks {verb} {group}/{resource}"
        );
    }
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
        "nginx:1.25"
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
    assert_eq!(samples[0]["spec"]["port"], 80);
}
