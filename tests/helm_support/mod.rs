//! helm for the chart tests: where the binary is, `helm template` and `helm lint` of a project's
//! chart, and the object-by-object comparison with the manifests kustomize builds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{files, kustomize, project_dir, workspace};

/// Labels only one side writes: who manages the object, and Helm's release and chart.
pub const TOOL_LABELS: [&str; 3] = [
    "app.kubernetes.io/managed-by",
    "app.kubernetes.io/instance",
    "helm.sh/chart",
];

/// helm, or `None` (and a note) when it is missing and may be (no `KUBEBUILDER_ASSETS`).
pub fn helm() -> Option<PathBuf> {
    let path =
        std::env::var_os("WEBOP_HELM").map_or_else(|| workspace().join("bin/helm"), PathBuf::from);
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var_os("KUBEBUILDER_ASSETS").is_none(),
        "KUBEBUILDER_ASSETS is set, so the reference tools are required, but helm is not at {} \
         (build it with tools/helm, or set WEBOP_HELM)",
        path.display()
    );
    eprintln!(
        "skipped: helm not found at {} (tools/helm builds it; or set WEBOP_HELM)",
        path.display()
    );
    None
}

/// A copy of a golden project of testdata/ in a temporary directory.
pub fn golden_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let (temp, dir) = project_dir();
    for (path, bytes) in files(&workspace().join("testdata").join(name)) {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    (temp, dir)
}

/// The documents `helm template` renders from the chart, released as the project's name in the
/// namespace config/default names (`<project>-system`), with `args` added.
pub fn helm_template(helm: &Path, dir: &Path, project: &str, args: &[&str]) -> Vec<Value> {
    let output = Command::new(helm)
        .args(["template", project, "dist/chart", "--namespace"])
        .arg(format!("{project}-system"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "helm template failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let docs: Vec<Value> = serde_saphyr::from_str_multiple(&text).unwrap();
    docs.into_iter().filter(|d| !d.is_null()).collect()
}

/// `helm lint --strict` passes on the chart.
pub fn lint(helm: &Path, dir: &Path) {
    let output = Command::new(helm)
        .args(["lint", "--strict", "dist/chart"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "helm lint failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The objects by kind, namespace and name, without what only one tool writes: the labels
/// above, Helm's keep policy on CRDs, and the Namespace (a chart installs into the release's
/// namespace, `helm install --create-namespace`).
pub fn by_identity(docs: Vec<Value>) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for mut doc in docs {
        if doc["kind"] == "Namespace" {
            continue;
        }
        let metadata = doc["metadata"].as_object_mut().unwrap();
        if let Some(labels) = metadata.get_mut("labels").and_then(Value::as_object_mut) {
            for label in TOOL_LABELS {
                labels.remove(label);
            }
        }
        if let Some(annotations) = metadata
            .get_mut("annotations")
            .and_then(Value::as_object_mut)
        {
            annotations.remove("helm.sh/resource-policy");
        }
        let key = format!(
            "{} {}/{}",
            doc["kind"].as_str().unwrap(),
            doc["metadata"]["namespace"].as_str().unwrap_or(""),
            doc["metadata"]["name"].as_str().unwrap()
        );
        assert!(out.insert(key.clone(), doc).is_none(), "{key} twice");
    }
    out
}

/// The chart with default values describes exactly the objects of the kustomize build.
pub fn assert_chart_is_the_kustomize_build(helm: &Path, dir: &Path, project: &str) {
    assert_chart_renders(
        helm,
        dir,
        project,
        &[],
        kustomize(&dir.join("config/default")),
    );
}

/// The chart, with `args`, describes exactly the objects `expected`.
pub fn assert_chart_renders(
    helm: &Path,
    dir: &Path,
    project: &str,
    args: &[&str],
    expected: Vec<Value>,
) {
    let expected = by_identity(expected);
    let charted = by_identity(helm_template(helm, dir, project, args));
    let names = |m: &BTreeMap<String, Value>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&charted), names(&expected), "the objects differ");
    for (key, object) in &expected {
        assert_eq!(
            &charted[key],
            object,
            "{key}: the chart renders\n{}\nwhere the manifests have\n{}",
            serde_json::to_string_pretty(&charted[key]).unwrap(),
            serde_json::to_string_pretty(object).unwrap()
        );
    }
}
