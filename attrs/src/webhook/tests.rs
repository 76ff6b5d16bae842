use quote::quote;

use super::*;

fn webhook(tokens: TokenStream) -> Result<Webhook, Vec<String>> {
    parse_args_of_webhook(tokens, Span::call_site())
        .map_err(|e| e.into_iter().map(|e| e.to_string()).collect())
}

#[test]
fn values_are_read_as_controller_gen_reads_them() {
    let parsed = webhook(quote!(
        path = "/mutate-app-example-com-v1-webapp",
        mutating,
        failure_policy = "fail",
        match_policy = "equivalent",
        side_effects = "none",
        timeout_seconds = 10,
        groups = "core;apps",
        resources = ["webapps"],
        verbs = "create;Update",
        versions = ["v1"],
        name = "mwebapp.kb.io",
        admission_review_versions = ["v1", "v1beta1"],
        reinvocation_policy = "ifneeded",
        webhook_versions = ["v1"]
    ))
    .unwrap();
    assert_eq!(
        parsed,
        Webhook {
            name: "mwebapp.kb.io".into(),
            mutating: true,
            failure_policy: "Fail".into(),
            match_policy: Some("Equivalent".into()),
            side_effects: "None".into(),
            timeout_seconds: Some(10),
            groups: vec![String::new(), "apps".into()],
            resources: vec!["webapps".into()],
            verbs: vec!["CREATE".into(), "UPDATE".into()],
            versions: vec!["v1".into()],
            path: Some("/mutate-app-example-com-v1-webapp".into()),
            admission_review_versions: vec!["v1".into(), "v1beta1".into()],
            reinvocation_policy: Some("IfNeeded".into()),
            ..Webhook::default()
        }
    );
}

#[test]
fn every_mistake_is_reported_at_once() {
    let errors = webhook(quote!(
        url = "https://example.com/validate",
        path = "no-slash",
        mutating = false,
        failure_policy = "sometimes",
        side_effects = "Some",
        timeout_seconds = 31,
        verbs = ["patch"],
        reinvocation_policy = "Never",
        colour = "blue"
    ))
    .unwrap_err();
    let expected = [
        "invalid path \"no-slash\": a webhook path starts with `/`",
        "invalid failure_policy \"sometimes\": one of Fail, Ignore",
        "a v1 webhook's `side_effects` must be \"None\" or \"NoneOnDryRun\"",
        "invalid timeout_seconds 31: a webhook's timeout is 1 to 30 seconds",
        "invalid verb \"patch\"",
        "unknown key `colour`",
        "#[webhook] needs `groups`",
        "#[webhook] needs `admission_review_versions`",
        "`reinvocation_policy` applies to mutating webhooks only",
    ];
    for message in expected {
        assert!(
            errors.iter().any(|e| e.starts_with(message)),
            "{message:?} not in {errors:#?}"
        );
    }
    let both = webhook(quote!(
        url = "https://x",
        path = "/x",
        mutating,
        failure_policy = "Fail",
        side_effects = "None",
        groups = ["a"],
        resources = ["b"],
        verbs = ["create"],
        versions = ["v1"],
        name = "n",
        admission_review_versions = ["v1"]
    ))
    .unwrap_err();
    assert_eq!(
        both,
        ["#[webhook] needs exactly one of `path` (on the webhook Service) and `url`"]
    );
}

#[test]
fn attributes_are_found_in_source() {
    let file: syn::File = syn::parse_str(
        r#"
        #[webop::webhook(path = "/v", mutating = false, failure_policy = "Ignore", side_effects = "None",
                         groups = ["a"], resources = ["b"], verbs = ["delete"], versions = ["v1"],
                         name = "v.kb.io", admission_review_versions = ["v1"])]
        struct Validator;
        mod inner {
            #[webhook_configuration(mutating, name = "mine")]
            fn f() {}
        }
        "#,
    )
    .unwrap();
    let found = webhooks_in_file(&file).unwrap();
    assert_eq!(found.webhooks.len(), 1);
    assert_eq!(found.webhooks[0].verbs, ["DELETE"]);
    assert_eq!(
        found.configurations,
        [Configuration {
            mutating: true,
            name: "mine".into()
        }]
    );
}
