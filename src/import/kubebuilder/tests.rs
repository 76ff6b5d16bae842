use std::path::Path;

use super::*;

fn fixture() -> std::path::PathBuf {
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
    assert_eq!(kinds, ["Frigate", "Harbor"]);
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
    let harbor = &imported.kinds[1];
    assert!(!harbor.namespaced);
    assert!(
        harbor.source.contains("use super::*;"),
        "Berth uses CallSign"
    );
    let (file, rules) = harbor.reconciler.as_ref().unwrap();
    assert_eq!(file, "internal/controller/harbor_controller.go");
    assert_eq!(rules.len(), 2);
    assert!(
        rules[1].ends_with("namespace = \"fleet-system\")]"),
        "{rules:?}"
    );
}
