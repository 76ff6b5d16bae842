use serde_json::json;

use super::*;

fn validator() -> Validator {
    let yaml = include_str!("../../tests/conformance/webapp/app.example.com_webapps.yaml");
    let crd: CustomResourceDefinition = serde_saphyr::from_str(yaml).unwrap();
    Validator::new(&[crd]).unwrap()
}

fn webapp(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "app.example.com/v1", "kind": "WebApp",
           "metadata": {"name": name}, "spec": spec})
}

#[test]
fn a_valid_document_comes_back_defaulted() {
    let verdict = validator().check(&webapp("demo", json!({"image": "nginx"})), false);
    let Verdict::Valid(stored) = verdict else {
        panic!("{verdict:?}")
    };
    assert_eq!(
        stored["spec"],
        json!({"image": "nginx", "replicas": 1, "port": 8080})
    );
    assert_eq!(
        stored["metadata"],
        json!({"name": "demo", "namespace": "default"})
    );
}

#[test]
fn violations_get_the_api_servers_message() {
    let document = webapp("demo", json!({"image": "nginx", "replicas": 11, "port": 0}));
    let Verdict::Invalid(message) = validator().check(&document, false) else {
        panic!("accepted")
    };
    for expected in [
        "WebApp.app.example.com \"demo\" is invalid",
        "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        "spec.port: Invalid value: 0: spec.port in body should be greater than or equal to 1",
    ] {
        assert!(message.contains(expected), "{message}");
    }

    let named = webapp("web.app", json!({"image": "nginx"}));
    let Verdict::Invalid(message) = validator().check(&named, false) else {
        panic!("accepted")
    };
    assert!(
        message.contains("metadata.name must be at most 59"),
        "{message}"
    );
}

#[test]
fn unknown_fields_are_pruned_or_refused_when_strict() {
    let document = webapp("demo", json!({"image": "nginx", "colour": "blue"}));
    let Verdict::Valid(stored) = validator().check(&document, false) else {
        panic!("refused")
    };
    assert!(stored["spec"].get("colour").is_none());
    let Verdict::Invalid(message) = validator().check(&document, true) else {
        panic!("accepted")
    };
    assert!(
        message.contains("unknown field \"spec.colour\""),
        "{message}"
    );
}

#[test]
fn a_kind_no_crd_serves_is_named() {
    let document = json!({"apiVersion": "app.example.com/v2", "kind": "WebApp",
                          "metadata": {"name": "demo"}});
    assert_eq!(
        validator().check(&document, false),
        Verdict::UnknownKind(
            "no CRD serves kind \"WebApp\" of apiVersion \"app.example.com/v2\" (the CRDs \
             serve: app.example.com/v1 WebApp)"
                .into()
        )
    );
}
