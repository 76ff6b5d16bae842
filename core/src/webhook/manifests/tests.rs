use super::*;

fn validating(name: &str) -> Webhook {
    Webhook {
        name: name.into(),
        failure_policy: "Fail".into(),
        side_effects: "None".into(),
        groups: vec!["app.example.com".into()],
        resources: vec!["webapps".into()],
        verbs: vec!["CREATE".into()],
        versions: vec!["v1".into()],
        path: Some("/validate".into()),
        admission_review_versions: vec!["v1".into()],
        ..Webhook::default()
    }
}

#[test]
fn mutating_comes_first_and_webhooks_sort_by_name() {
    let mutating = Webhook {
        mutating: true,
        reinvocation_policy: Some("Never".into()),
        url: Some("https://example.com/mutate".into()),
        path: None,
        ..validating("m.kb.io")
    };
    let docs = configuration_documents(
        &[validating("z.kb.io"), mutating, validating("a.kb.io")],
        &[Configuration {
            mutating: false,
            name: "mine".into(),
        }],
    )
    .unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(
        docs[0]["metadata"]["name"],
        "mutating-webhook-configuration"
    );
    assert_eq!(
        docs[0]["webhooks"][0]["clientConfig"],
        json!({"url": "https://example.com/mutate"})
    );
    assert_eq!(docs[0]["webhooks"][0]["reinvocationPolicy"], "Never");
    assert_eq!(docs[1]["metadata"]["name"], "mine");
    let names: Vec<&str> = docs[1]["webhooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a.kb.io", "z.kb.io"]);
    assert_eq!(
        docs[1]["webhooks"][0]["clientConfig"],
        json!({"service": {"name": "webhook-service", "namespace": "system", "path": "/validate"}})
    );
}

#[test]
fn no_webhooks_no_documents_and_one_name_per_configuration() {
    assert!(configuration_documents(&[], &[]).unwrap().is_empty());
    let twice = [
        Configuration {
            mutating: true,
            name: "a".into(),
        },
        Configuration {
            mutating: true,
            name: "b".into(),
        },
    ];
    assert_eq!(
        configuration_documents(&[], &twice)
            .unwrap_err()
            .to_string(),
        "two #[webhook_configuration]s name the mutating configuration: \"a\" and \"b\"; keep one"
    );
}
