use super::*;
use crate::import::kubebuilder::go;

const GO: &str = "package v1\n\n\
    // +kubebuilder:webhook:path=/custom-mutate-sailor,mutating=true,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=crew.testproject.org,resources=sailors,verbs=create;update;delete,versions=v1,name=msailor-v1.kb.io,admissionReviewVersions=v1;v1beta1,timeoutSeconds=5\n\n\
    // SailorCustomDefaulter defaults.\n\
    type SailorCustomDefaulter struct{}\n";

#[test]
fn a_marker_becomes_the_attribute_at_its_own_path() {
    let file = go::parse("internal/webhook/v1/sailor_webhook.go", GO).unwrap();
    let webhooks = markers_of(&[&file]).unwrap().webhooks;
    assert_eq!(webhooks.len(), 1);
    let webhook = &webhooks[0];
    assert!(webhook.is_for("crew.testproject.org", "sailors", "v1"));
    let path = default_path(true, "crew.testproject.org", "v1", "Sailor");
    assert_eq!(path, "/mutate-crew-testproject-org-v1-sailor");
    let attribute = webhook.attribute(&path);
    assert_eq!(
        attribute.text,
        "#[webhook(\n    \
         path = \"/custom-mutate-sailor\",\n    \
         mutating,\n    \
         failure_policy = \"ignore\",\n    \
         side_effects = \"NoneOnDryRun\",\n    \
         groups = [\"crew.testproject.org\"],\n    \
         resources = [\"sailors\"],\n    \
         verbs = [\"create\", \"update\", \"delete\"],\n    \
         versions = [\"v1\"],\n    \
         name = \"msailor-v1.kb.io\",\n    \
         admission_review_versions = [\"v1\", \"v1beta1\"],\n    \
         timeout_seconds = 5\n)]"
    );
    assert_eq!(
        attribute.custom_path.as_deref(),
        Some("/custom-mutate-sailor")
    );
    let at_its_path = GoWebhook {
        path: Some(path.clone()),
        ..webhook.clone()
    };
    assert_eq!(at_its_path.attribute(&path).custom_path, None);
}

/// A webhook at a custom path is scaffolded there: `create webhook` gets the marker's path.
#[test]
fn a_webhook_at_a_custom_path_is_registered_there() {
    let mutating = WebhookAttribute {
        mutating: true,
        text: String::new(),
        custom_path: Some("/custom-mutate-sailor".into()),
    };
    let listed = crate::import::kubebuilder::Webhooks {
        defaulting: true,
        validation: true,
        ..Default::default()
    };
    assert_eq!(
        create_webhook_flags(&listed, &[mutating]),
        [
            "--defaulting",
            "--defaulting-path=/custom-mutate-sailor",
            "--programmatic-validation"
        ]
    );
}

#[test]
fn the_scaffold_s_attribute_of_the_same_type_is_replaced() {
    let scaffold = "/// Defaults.\n#[webhook(\n    path = \"/mutate-x\",\n    mutating,\n    name = \"m\"\n)]\n\
        struct D;\n#[webhook(\n    path = \"/validate-x\",\n    mutating = false,\n    name = \"v\"\n)]\nstruct V;\n";
    let mutating = WebhookAttribute {
        mutating: true,
        text: "#[webhook(\n    mutating,\n    name = \"go\"\n)]".into(),
        custom_path: None,
    };
    assert_eq!(
        webhook_file(scaffold, &[mutating]),
        "/// Defaults.\n#[webhook(\n    mutating,\n    name = \"go\"\n)]\nstruct D;\n\
         #[webhook(\n    path = \"/validate-x\",\n    mutating = false,\n    name = \"v\"\n)]\nstruct V;\n"
    );
}

#[test]
fn a_configuration_s_name_goes_on_the_first_webhook_of_its_type() {
    let text =
        format!("{GO}\n// +kubebuilder:webhookconfiguration:mutating=true,name=fleet-mutating\n");
    let file = go::parse("w.go", &text).unwrap();
    let markers = markers_of(&[&file]).unwrap();
    assert_eq!(
        markers.configurations[0].attribute,
        "#[webhook_configuration(mutating, name = \"fleet-mutating\")]"
    );
}

#[test]
fn an_unknown_argument_is_refused() {
    let text = GO.replace("timeoutSeconds=5", "timeout=5");
    let file = go::parse("w.go", &text).unwrap();
    let message = markers_of(&[&file]).unwrap_err().to_string();
    assert!(
        message.contains("`timeout` is no argument of +kubebuilder:webhook"),
        "{message}"
    );
}
