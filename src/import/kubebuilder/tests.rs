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
    let (file, rules) = harbor.reconciler.as_ref().unwrap();
    assert_eq!(file, "internal/controller/harbor_controller.go");
    assert_eq!(rules.len(), 2);
    assert!(
        rules[1].ends_with("namespace = \"fleet-system\")]"),
        "{rules:?}"
    );
}
