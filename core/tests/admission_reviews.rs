//! What a review must be for a webhook to see it, as controller-runtime checks it: an
//! AdmissionReview of a known version, about an object of the webhook's kind; and what an
//! object with many fields the type drops costs (issue 29).

mod support;

use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::{Value, json};
use support::{Defaulter, MUTATE, config_map, review, webhooks};
use webop_core::webhook::Webhooks;

/// The patch of an answered review, decoded.
fn patch(answer: &Value) -> Value {
    use base64::Engine;
    let Some(patch) = answer["response"]["patch"].as_str() else {
        return Value::Null;
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(patch)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn admission_reviews_v1_and_v1beta1_are_answered_in_their_version() {
    for version in ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"] {
        let (code, answer) = webhooks()
            .handle(MUTATE, &review(version, config_map()))
            .await
            .unwrap();
        assert_eq!((code, answer["apiVersion"].as_str()), (200, Some(version)));
        assert_eq!(answer["response"]["allowed"], true, "{answer}");
        assert_eq!(
            patch(&answer),
            json!([{"op": "add", "path": "/data", "value": {"defaulted": "yes"}}])
        );
    }
}

#[tokio::test]
async fn an_admission_review_of_an_unknown_version_or_kind_is_refused() {
    for (version, kind) in [
        ("admission.k8s.io/v9", "AdmissionReview"),
        ("admission.k8s.io/v1", "ConversionReview"),
    ] {
        let mut body: Value = serde_json::from_slice(&review(version, config_map())).unwrap();
        body["kind"] = json!(kind);
        let body = serde_json::to_vec(&body).unwrap();
        let (code, answer) = webhooks().handle(MUTATE, &body).await.unwrap();
        assert_eq!(
            code, 200,
            "the verdict is in the review, as controller-runtime writes it"
        );
        assert_eq!(answer["apiVersion"], "admission.k8s.io/v1");
        let response = &answer["response"];
        assert_eq!(response["allowed"], false, "{answer}");
        assert_eq!(response["status"]["code"], 400);
        let message = response["status"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "no kind {kind:?} is registered for version {version:?}"
            )),
            "{message}"
        );
        assert!(response.get("patch").is_none());
    }
}

#[tokio::test]
async fn an_object_of_another_kind_is_refused_and_not_patched_into_the_webhooks_kind() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}});
    let (code, answer) = webhooks()
        .handle(MUTATE, &review("admission.k8s.io/v1", pod))
        .await
        .unwrap();
    assert_eq!(code, 200);
    let response = &answer["response"];
    assert_eq!(response["allowed"], false, "{answer}");
    assert_eq!(response["uid"], "u-1");
    assert_eq!(response["status"]["code"], 400);
    let message = response["status"]["message"].as_str().unwrap();
    assert!(
        message.contains("object: unable to decode v1, Kind=Pod into v1, Kind=ConfigMap"),
        "{message}"
    );
    assert!(response.get("patch").is_none());

    // Another version of the kind is another type too.
    let mut config = config_map();
    config["apiVersion"] = json!("v2");
    let (_, answer) = webhooks()
        .handle(MUTATE, &review("admission.k8s.io/v1", config))
        .await
        .unwrap();
    assert_eq!(answer["response"]["allowed"], false, "{answer}");

    // Without apiVersion and kind the object is taken as the webhook's kind, as
    // controller-runtime's decoder takes it; the patch then writes them.
    let bare = json!({"metadata": {"name": "web"}});
    let (_, answer) = webhooks()
        .handle(MUTATE, &review("admission.k8s.io/v1", bare))
        .await
        .unwrap();
    assert_eq!(answer["response"]["allowed"], true, "{answer}");
}

/// Issue 29's attack: fields the type drops, by the ten thousand. Each is kept (the patch only
/// adds the default), and the answer takes linear time: `cargo bench -p webop-core --bench
/// defaulting --features webhook` prints the figures.
#[tokio::test]
async fn sixty_thousand_unknown_fields_are_kept_and_the_default_alone_is_patched() {
    let mut object = config_map();
    for i in 0..60_000 {
        object[format!("unknown{i}")] = json!(i);
    }
    let (code, answer) = webhooks()
        .handle(MUTATE, &review("admission.k8s.io/v1", object))
        .await
        .unwrap();
    assert_eq!(code, 200);
    assert_eq!(
        patch(&answer),
        json!([{"op": "add", "path": "/data", "value": {"defaulted": "yes"}}])
    );
}

/// kubebuilder's `--defaulting-path`: the webhook is served at its own path, and only there.
#[tokio::test]
async fn a_webhook_at_a_custom_path_is_served_there_only() {
    let webhooks = Webhooks::new().defaulter_at::<ConfigMap, _>("/custom-mutate", Defaulter);
    assert_eq!(webhooks.paths(), ["/custom-mutate"]);
    let body = review("admission.k8s.io/v1", config_map());
    let (code, answer) = webhooks.handle("/custom-mutate", &body).await.unwrap();
    assert_eq!(code, 200);
    assert_eq!(answer["response"]["allowed"], true, "{answer}");
    assert_eq!(
        patch(&answer),
        json!([{"op": "add", "path": "/data", "value": {"defaulted": "yes"}}])
    );
    assert!(webhooks.handle(MUTATE, &body).await.is_none());
}

#[test]
#[should_panic(expected = "the webhook path \"custom-mutate\" does not start with `/`")]
fn a_custom_path_without_its_slash_is_a_wiring_mistake() {
    let _ = Webhooks::new().defaulter_at::<ConfigMap, _>("custom-mutate", Defaulter);
}
