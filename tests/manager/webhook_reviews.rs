//! The reviews the API server posts, answered by `Webhooks::handle` (what the HTTPS server and
//! the testkit call): AdmissionReview v1 for defaulting and validation, ConversionReview v1
//! for conversion, with the WebApp API of `webhook_support`.

use base64::Engine;
use serde_json::{Value, json};
use webhook_support::{v1, v2, webhooks};
use webop::webhook::{Convertible, CustomValidator, Denied, Warnings, Webhooks, admission_request};

use crate::webhook_support;

fn webapp(api_version: &str, spec: Value) -> Value {
    json!({
        "apiVersion": api_version, "kind": "WebApp",
        "metadata": {"name": "web", "namespace": "default", "uid": "0a1b", "resourceVersion": "7",
                     "labels": {"team": "a"}, "creationTimestamp": "2026-01-01T00:00:00Z"},
        "spec": spec,
    })
}

fn admission(operation: &str, object: Option<Value>, old: Option<Value>) -> Vec<u8> {
    let review = json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "req-1", "operation": operation, "name": "web", "namespace": "default",
            "kind": {"group": "app.example.com", "version": "v1", "kind": "WebApp"},
            "resource": {"group": "app.example.com", "version": "v1", "resource": "webapps"},
            "userInfo": {"username": "alice"}, "object": object, "oldObject": old, "dryRun": false,
        },
    });
    serde_json::to_vec(&review).unwrap()
}

async fn admit(webhooks: &Webhooks, path: &str, body: Vec<u8>) -> Value {
    let (code, review) = webhooks
        .handle(path, &body)
        .await
        .expect("a webhook at the path");
    assert_eq!(code, 200);
    assert_eq!(review["apiVersion"], "admission.k8s.io/v1");
    assert_eq!(review["kind"], "AdmissionReview");
    assert_eq!(review["response"]["uid"], "req-1");
    review["response"].clone()
}

const MUTATE: &str = "/mutate-app-example-com-v1-webapp";
const VALIDATE: &str = "/validate-app-example-com-v1-webapp";

#[tokio::test]
async fn defaulting_answers_with_the_patch_to_the_defaulted_object() {
    let webhooks = webhooks();
    assert_eq!(webhooks.paths(), [MUTATE, VALIDATE, "/convert"]);
    let mut object = webapp("app.example.com/v1", json!({"image": "nginx"}));
    object["spec"]["futureField"] = json!("kept");
    let response = admit(
        &webhooks,
        MUTATE,
        admission("CREATE", Some(object.clone()), None),
    )
    .await;
    assert_eq!(response["allowed"], true);
    assert_eq!(response["patchType"], "JSONPatch");
    let patch = base64::engine::general_purpose::STANDARD
        .decode(response["patch"].as_str().unwrap())
        .unwrap();
    let patch: Value = serde_json::from_slice(&patch).unwrap();
    assert_eq!(
        patch,
        json!([{"op": "add", "path": "/spec/replicas", "value": 1}]),
        "only the default: no removal of what v1::WebApp does not know"
    );

    let defaulted = webapp(
        "app.example.com/v1",
        json!({"image": "nginx", "replicas": 3}),
    );
    let response = admit(
        &webhooks,
        MUTATE,
        admission("UPDATE", Some(defaulted.clone()), Some(object)),
    )
    .await;
    assert_eq!(response["allowed"], true);
    assert!(
        response.get("patch").is_none(),
        "nothing to default: {response}"
    );
    let response = admit(
        &webhooks,
        MUTATE,
        admission("DELETE", None, Some(defaulted)),
    )
    .await;
    assert_eq!(response["allowed"], true, "deletions are not defaulted");
}

#[tokio::test]
async fn validation_warns_and_denies_as_the_api_server_shows_it() {
    let webhooks = webhooks();
    let many = webapp(
        "app.example.com/v1",
        json!({"image": "nginx", "replicas": 7}),
    );
    let response = admit(
        &webhooks,
        VALIDATE,
        admission("CREATE", Some(many.clone()), None),
    )
    .await;
    assert_eq!(response["allowed"], true);
    assert_eq!(
        response["warnings"],
        json!(["7 replicas: consider an autoscaler"])
    );

    let too_many = webapp(
        "app.example.com/v1",
        json!({"image": "nginx", "replicas": 11}),
    );
    let response = admit(
        &webhooks,
        VALIDATE,
        admission("UPDATE", Some(too_many), Some(many.clone())),
    )
    .await;
    assert_eq!(response["allowed"], false);
    assert_eq!(
        response["status"],
        json!({
            "status": "Failure", "code": 422, "reason": "Invalid",
            "message": "WebApp.app.example.com \"web\" is invalid: spec.replicas: Invalid value: 11: must be at most 10",
            "details": {"name": "web", "group": "app.example.com", "kind": "WebApp", "causes": [
                {"reason": "FieldValueInvalid", "message": "Invalid value: 11: must be at most 10", "field": "spec.replicas"},
            ]},
        })
    );
    assert_eq!(
        response["warnings"],
        json!(["replicas above 10 need a bigger node pool"])
    );

    let mut protected = many;
    protected["metadata"]["labels"]["protected"] = json!("true");
    let response = admit(
        &webhooks,
        VALIDATE,
        admission("DELETE", None, Some(protected)),
    )
    .await;
    assert_eq!(response["allowed"], false);
    assert_eq!(response["status"]["code"], 403);
    assert_eq!(
        response["status"]["message"],
        "web is protected: remove its `protected` label first"
    );
}

#[tokio::test]
async fn requests_the_webhook_cannot_read_are_errors_not_panics() {
    let webhooks = webhooks();
    let wrong = webapp("app.example.com/v1", json!({"image": 5}));
    let response = admit(&webhooks, VALIDATE, admission("CREATE", Some(wrong), None)).await;
    assert_eq!(response["allowed"], false);
    assert_eq!(response["status"]["code"], 400);
    assert!(
        response["status"]["message"]
            .as_str()
            .unwrap()
            .starts_with("object: invalid type")
    );
    let response = admit(&webhooks, VALIDATE, admission("UPDATE", None, None)).await;
    assert_eq!(
        response["status"]["message"],
        "there is no content to decode in object"
    );
    let (code, _) = webhooks.handle(VALIDATE, b"not json").await.unwrap();
    assert_eq!(code, 400);
    assert!(
        webhooks
            .handle("/mutate-app-example-com-v2-webapp", b"{}")
            .await
            .is_none()
    );
}

async fn convert(webhooks: &Webhooks, desired: &str, objects: Vec<Value>) -> Value {
    let review = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": "conv-1", "desiredAPIVersion": desired, "objects": objects},
    });
    let body = serde_json::to_vec(&review).unwrap();
    let (code, review) = webhooks.handle("/convert", &body).await.unwrap();
    assert_eq!(code, 200);
    assert_eq!(review["kind"], "ConversionReview");
    assert!(review.get("request").is_none());
    assert_eq!(review["response"]["uid"], "conv-1");
    review["response"].clone()
}

#[tokio::test]
async fn conversion_goes_through_the_hub_and_keeps_the_metadata() {
    let webhooks = webhooks();
    let hub = webapp(
        "app.example.com/v1",
        json!({"image": "nginx:1.27", "replicas": 2}),
    );
    let response = convert(&webhooks, "app.example.com/v2", vec![hub.clone()]).await;
    assert_eq!(response["result"], json!({"status": "Success"}));
    let spoke = &response["convertedObjects"][0];
    assert_eq!(spoke["apiVersion"], "app.example.com/v2");
    assert_eq!(
        spoke["metadata"], hub["metadata"],
        "the metadata is the source's, byte for byte"
    );
    assert_eq!(
        spoke["spec"],
        json!({"image": {"repository": "nginx", "tag": "1.27"}, "replicas": 2})
    );
    let back = convert(&webhooks, "app.example.com/v1", vec![spoke.clone()]).await;
    assert_eq!(
        back["convertedObjects"][0], hub,
        "v1 -> v2 -> v1 is the identity"
    );

    let broken = webapp(
        "app.example.com/v2",
        json!({"image": {"repository": "nginx", "tag": "a:b"}}),
    );
    let failed = convert(&webhooks, "app.example.com/v1", vec![spoke.clone(), broken]).await;
    assert_eq!(
        failed["result"],
        json!({"status": "Failure", "message": "spec.image.tag \"a:b\" cannot be written as a v1 image"})
    );
    let same = convert(&webhooks, "app.example.com/v1", vec![hub]).await;
    assert_eq!(same["result"]["status"], "Failure");
    let other_group = convert(&webhooks, "other.example.com/v1", vec![spoke.clone()]).await;
    assert_eq!(other_group["result"]["status"], "Failure");
}

#[test]
fn typed_round_trips_are_the_identity() {
    let mut hub = v1::WebApp::new(
        "web",
        v1::WebAppSpec {
            image: "nginx".into(),
            replicas: None,
        },
    );
    for image in ["nginx", "nginx:1.27", "registry:5000/app:v2"] {
        hub.spec.image = image.to_owned();
        let spoke = v2::WebApp::convert_from(&hub).unwrap();
        assert_eq!(spoke.convert_to().unwrap().spec, hub.spec, "{image}");
    }
}

/// Answers with what `admission_request()` says, as a webhook with side effects reads it.
struct Echo;

impl CustomValidator<v1::WebApp> for Echo {
    async fn validate_create(&self, _: &v1::WebApp) -> Result<Warnings, Denied> {
        let info = admission_request().expect("inside a webhook call");
        Ok(vec![format!(
            "{} {} dry_run={} by {}",
            info.operation, info.name, info.dry_run, info.user_info.username
        )])
    }
    async fn validate_update(&self, _: &v1::WebApp, new: &v1::WebApp) -> Result<Warnings, Denied> {
        self.validate_create(new).await
    }
    async fn validate_delete(&self, old: &v1::WebApp) -> Result<Warnings, Denied> {
        self.validate_create(old).await
    }
}

#[tokio::test]
async fn webhooks_see_the_request_and_whether_it_is_a_dry_run() {
    let webhooks = Webhooks::new().validator::<v1::WebApp, _>(Echo);
    let object = webapp("app.example.com/v1", json!({"image": "nginx"}));
    let mut review: Value =
        serde_json::from_slice(&admission("CREATE", Some(object), None)).unwrap();
    review["request"]["dryRun"] = json!(true);
    let body = serde_json::to_vec(&review).unwrap();
    let response = admit(&webhooks, VALIDATE, body).await;
    assert_eq!(
        response["warnings"],
        json!(["CREATE web dry_run=true by alice"])
    );
    assert_eq!(admission_request(), None, "only inside a webhook call");
}
