use std::path::Path;

use super::*;

pub(super) fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/kubebuilder-project")
}

#[test]
fn the_fixture_reads_as_its_kinds_with_their_attributes_and_rbac() {
    let imported = import(&fixture()).unwrap();
    assert_eq!(imported.project.domain, "example.com");
    let kinds: Vec<&str> = imported
        .kinds
        .iter()
        .map(|k| k.resource.kind.as_str())
        .collect();
    assert_eq!(kinds, ["Frigate", "Harbor", "Beacon", "Lighthouse", "Buoy"]);
    assert!(imported.issues.is_empty(), "{:?}", imported.issues);
    let frigate = &imported.kinds[0].source;
    for expected in [
        "#[subresource(status)]",
        "short_name = [\"fg\", \"frig\"]",
        "#[root(x_validation(rule = \"self.metadata.name.size() <= 40\"",
        "#[serde(flatten)]",
        "pub enum Speed",
        "#[serde(rename = \"full-ahead\")]",
        "max_items = 50, items(max_length = 30)",
        "pub struct CallSign(pub String);",
        "/// spec defines the desired state of Frigate",
    ] {
        assert!(frigate.contains(expected), "{expected} in\n{frigate}");
    }
    assert!(frigate.contains("pub watch: Option<String>,"), "{frigate}");
    let webhooks = &imported.kinds[0].webhooks;
    assert_eq!(webhooks.len(), 2);
    assert!(webhooks[0].mutating && !webhooks[1].mutating);
    assert!(
        webhooks[0].text.starts_with(
            "#[webhook_configuration(mutating, name = \"fleet-mutating-webhook-configuration\")]\n#[webhook(\n    path = \"/mutate-ship-example-com-v1-frigate\",\n"
        ),
        "{}",
        webhooks[0].text
    );
    let sample = imported.kinds[0].sample.as_ref().unwrap();
    assert_eq!(sample.path, "config/samples/ship_v1_frigate.yaml");
    assert_eq!(sample.spec["callSign"], "HMS-1");
    assert_eq!(
        imported.tooling,
        Tooling::default(),
        "the fixture has no Makefile"
    );
    let harbor = &imported.kinds[1];
    assert!(!harbor.namespaced);
    assert!(
        harbor.source.contains("use super::*;"),
        "Berth uses CallSign"
    );
    let [controller] = harbor.controllers.as_slice() else {
        panic!("one controller: {:?}", harbor.controllers);
    };
    assert_eq!(controller.name, None, "PROJECT's `controller: true`");
    let (file, rules) = controller.reconciler.as_ref().unwrap();
    assert_eq!(file, "internal/controller/harbor_controller.go");
    assert_eq!(rules.len(), 2);
    assert!(
        rules[1].ends_with("namespace = \"fleet-system\")]"),
        "{rules:?}"
    );
}

/// kubebuilder's reconciler of each controller PROJECT names: the kind's for its default name
/// (and for `controller: true`), the name in PascalCase for the others.
#[test]
fn named_controllers_are_found_by_their_reconciler() {
    use super::reconciler_of;
    assert_eq!(reconciler_of("Captain", None), "Captain");
    assert_eq!(reconciler_of("Captain", Some("captain")), "Captain");
    assert_eq!(
        reconciler_of("Captain", Some("captain-backup")),
        "CaptainBackup"
    );
}

/// A kubebuilder project in a temporary directory: PROJECT (`resources` as given), go.mod, and
/// `api/v1/widget_types.go` with `types`.
pub(super) fn project_with(resources: &str, types: &str) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    std::fs::write(
        root.join("PROJECT"),
        format!(
            "domain: example.com\nlayout:\n- go.kubebuilder.io/v4\nprojectName: shop\nrepo: example.com/shop\nresources:\n{resources}version: \"3\"\n"
        ),
    )
    .unwrap();
    std::fs::write(
        root.join("go.mod"),
        "module example.com/shop\n\ngo 1.26.0\n\nrequire (\n\tk8s.io/api v0.36.0\n\tsigs.k8s.io/controller-runtime v0.24.1\n)\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("api/v1")).unwrap();
    std::fs::write(root.join("api/v1/widget_types.go"), types).unwrap();
    temp
}

pub(super) const WIDGET: &str = "- api:\n    crdVersion: v1\n    namespaced: true\n  controller: true\n  domain: example.com\n  group: shop\n  kind: Widget\n  path: example.com/shop/api/v1\n  version: v1\n";

#[test]
fn no_op_and_repeated_markers_are_read_as_controller_gen_reads_them() {
    let types = "package v1\n\n\
        import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\
        type WidgetSpec struct {\n\
        \t// +kubebuilder:validation:Minimum=1\n\
        \t// +kubebuilder:validation:Maximum=3\n\
        \t// +kubebuilder:validation:ExclusiveMaximum=false\n\
        \t// +kubebuilder:validation:Maximum=5\n\
        \t// +optional\n\
        \tSize *int32 `json:\"size,omitempty\"`\n\
        }\n\n\
        // +kubebuilder:object:root=true\n\
        // +kubebuilder:subresource:status\n\
        // +kubebuilder:subresource:status\n\
        // +kubebuilder:resource:shortName=wg\n\
        // +kubebuilder:resource:shortName=wg\n\n\
        // Widget is a widget.\n\
        type Widget struct {\n\
        \tmetav1.TypeMeta   `json:\",inline\"`\n\
        \tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\
        \tSpec WidgetSpec `json:\"spec\"`\n\
        }\n";
    let temp = project_with(WIDGET, types);
    let imported = import(temp.path()).unwrap();
    assert!(imported.issues.is_empty(), "{:?}", imported.issues);
    let source = &imported.kinds[0].source;
    assert!(
        source.contains("#[validate(minimum = 1, maximum = 5)]"),
        "{source}"
    );
    assert!(!source.contains("exclusive_maximum"), "{source}");
    assert_eq!(
        source.matches("#[subresource(status").count(),
        1,
        "{source}"
    );
    assert_eq!(source.matches("short_name").count(), 1, "{source}");
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(
        notes[0].contains("Widget: a repeated kind marker"),
        "{notes:?}"
    );
    assert!(
        notes[1].contains(":8: +kubebuilder:validation:ExclusiveMaximum=false: a false flag"),
        "{notes:?}"
    );
    assert!(
        notes[2].contains(":9: +kubebuilder:validation:Maximum: repeated with another value"),
        "{notes:?}"
    );
    assert_eq!(imported.tooling.k8s_feature.as_deref(), Some("v1_36"));
    assert_eq!(
        imported.tooling.envtest_version.as_deref(),
        Some("release-0.24")
    );
}

#[test]
fn kubernetes_kinds_with_controllers_and_plugins_carry_over() {
    let types = "package v1\n\n\
        import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\
        type WidgetSpec struct {}\n\n\
        // +kubebuilder:object:root=true\n\
        type Widget struct {\n\
        \tmetav1.TypeMeta   `json:\",inline\"`\n\
        \tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\
        \tSpec WidgetSpec `json:\"spec,omitempty\"`\n\
        }\n";
    let resources = format!(
        "{WIDGET}- controller: true\n  core: true\n  group: apps\n  kind: Deployment\n  path: k8s.io/api/apps/v1\n  version: v1\n"
    );
    let temp = project_with(&resources, types);
    std::fs::create_dir_all(temp.path().join("internal/controller")).unwrap();
    std::fs::write(
        temp.path()
            .join("internal/controller/deployment_controller.go"),
        "package controller\n\n\
         type DeploymentReconciler struct {}\n\n\
         // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list\n\n\
         func (r *DeploymentReconciler) Reconcile() {}\n",
    )
    .unwrap();
    let text = std::fs::read_to_string(temp.path().join("PROJECT")).unwrap();
    std::fs::write(
        temp.path().join("PROJECT"),
        text.replace(
            "projectName:",
            "plugins:\n  helm.kubebuilder.io/v2-alpha: {}\n  autoupdate.kubebuilder.io/v1-alpha: {}\nprojectName:",
        ),
    )
    .unwrap();
    let imported = import(temp.path()).unwrap();
    let [core] = imported.core_controllers.as_slice() else {
        panic!("{:?}", imported.core_controllers);
    };
    assert_eq!(core.resource.kind, "Deployment");
    let (file, rules) = core.reconciler.as_ref().unwrap();
    assert_eq!(file, "internal/controller/deployment_controller.go");
    assert_eq!(
        rules,
        &[
            "#[rbac(groups = [\"apps\"], resources = [\"deployments\"], verbs = [\"get\", \"list\"])]"
        ]
    );
    assert!(imported.issues.is_empty(), "{:?}", imported.issues);
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert!(
        notes.contains(
            &"PROJECT:0: plugin autoupdate.kubebuilder.io/v1-alpha: `webop edit --plugins autoupdate`"
                .to_owned()
        ),
        "{notes:?}"
    );
}
