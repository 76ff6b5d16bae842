//! Custom resources against their CRD's schema: defaulting, pruning, strict field validation,
//! Kubernetes' 422 errors naming the field, list-map keys, CEL rules. Every test is a
//! `scenario!`: the same body runs on the testkit and on a real kube-apiserver.

use crate::testkit_common;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Patch, PatchParams, PostParams};
use serde_json::json;
use testkit_common::{causes, environment, status_of, webapp, webapp_crd, webapps};
use webop_envtest::{Backend, Environment};

/// An environment serving the WebApp CRD.
async fn with_webapps(backend: Backend) -> Environment {
    environment(backend)
        .crd(webapp_crd())
        .start()
        .await
        .expect("the WebApp CRD installs")
}

scenario!(
    missing_fields_are_defaulted_and_unknown_fields_pruned,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");
        let created = api
            .create(
                &PostParams::default(),
                &webapp("web", json!({"image": "nginx", "colour": "blue"})),
            )
            .await
            .unwrap();
        assert_eq!(
            created.data["spec"],
            json!({"image": "nginx", "replicas": 1, "port": 80})
        );
        assert_eq!(created.metadata.generation, Some(1));
    }
);

scenario!(
    strict_field_validation_rejects_unknown_fields,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");
        api.create(
            &PostParams::default(),
            &webapp("web", json!({"image": "nginx"})),
        )
        .await
        .unwrap();
        // A strict create is a decoding error listing every unknown field.
        // (kube's PostParams has no fieldValidation: the request is built by hand.)
        let body = serde_json::to_vec(&json!({
            "apiVersion": "app.example.com/v1", "kind": "WebApp", "metadata": {"name": "other"},
            "spec": {"image": "nginx", "colour": "blue", "size": 1}
        }))
        .unwrap();
        let request = http::Request::post(
            "/apis/app.example.com/v1/namespaces/default/webapps?fieldValidation=Strict",
        )
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(body)
        .unwrap();
        let status = status_of(env.client().request::<serde_json::Value>(request).await);
        assert_eq!((status.code, status.reason.as_str()), (400, "BadRequest"));
        assert_eq!(
            status.message,
            "WebApp in version \"v1\" cannot be handled as a WebApp: strict decoding error: \
             unknown field \"spec.colour\", unknown field \"spec.size\""
        );

        // A strict patch is refused with the patched object, as sorted JSON.
        let params = PatchParams::default().validation(kube::api::ValidationDirective::Strict);
        let change = json!({"spec": {"colour": "blue"}});
        let mut patched = serde_json::to_value(api.get("web").await.unwrap()).unwrap();
        patched["spec"]["colour"] = json!("blue");
        let status = status_of(api.patch("web", &params, &Patch::Merge(&change)).await);
        assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
        assert_eq!(
            status.message,
            format!(
                " \"\" is invalid: patch: Invalid value: {:?}: strict decoding error: unknown field \"spec.colour\"",
                patched.to_string()
            )
        );
        assert_eq!(status.details.unwrap().causes[0].field, "patch");

        // Server-side apply cannot type an unknown field, whatever the validation.
        let config = json!({"apiVersion": "app.example.com/v1", "kind": "WebApp", "metadata": {"name": "web"}, "spec": {"colour": "blue"}});
        let status = status_of(
            api.patch("web", &PatchParams::apply("tester"), &Patch::Apply(&config))
                .await,
        );
        assert_eq!(
            (status.code, status.message.as_str()),
            (
                500,
                "failed to create typed patch object (/web; app.example.com/v1, Kind=WebApp): \
                 .spec.colour: field not declared in schema"
            )
        );

        // Without strict validation unknown fields are dropped.
        let patched = api
            .patch("web", &PatchParams::default(), &Patch::Merge(&change))
            .await
            .unwrap();
        assert_eq!(patched.data["spec"].get("colour"), None);
    }
);

scenario!(
    schema_violations_get_422_naming_the_field,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");

        let status = status_of(
            api.create(
                &PostParams::default(),
                &webapp("web", json!({"image": "nginx", "replicas": 11})),
            )
            .await,
        );
        assert_eq!(status.code, 422);
        assert_eq!(status.reason, "Invalid");
        assert_eq!(
            status.message,
            "WebApp.app.example.com \"web\" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"
        );
        let cause = &status.details.as_ref().unwrap().causes[0];
        assert_eq!(
            (cause.field.as_str(), cause.reason.as_str()),
            ("spec.replicas", "FieldValueInvalid")
        );

        let status = status_of(
            api.create(
                &PostParams::default(),
                &webapp("web", json!({"replicas": 0, "port": "x"})),
            )
            .await,
        );
        // A type error names the value's type, as kube-openapi does.
        assert_eq!(
            causes(&status),
            [
                "spec.image: Required value",
                "spec.port: Invalid value: \"string\": spec.port in body must be of type integer: \"string\"",
                "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
            ]
        );
        let reasons: Vec<&str> = status
            .details
            .as_ref()
            .unwrap()
            .causes
            .iter()
            .map(|c| c.reason.as_str())
            .collect();
        assert!(reasons.contains(&"FieldValueTypeInvalid"), "{reasons:?}");
        assert!(
            status
                .message
                .starts_with("WebApp.app.example.com \"web\" is invalid: ["),
            "{}",
            status.message
        );
    }
);

scenario!(duplicate_list_map_keys_are_rejected, async |backend| {
    let env = with_webapps(backend).await;
    let api = webapps(env.client(), "default");
    api.create(
        &PostParams::default(),
        &webapp("web", json!({"image": "nginx"})),
    )
    .await
    .unwrap();
    let conditions = json!({"status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "Ready", "status": "False"}]}});
    let status = status_of(
        api.patch_status("web", &PatchParams::default(), &Patch::Merge(&conditions))
            .await,
    );
    assert_eq!(
        status.message,
        "WebApp.app.example.com \"web\" is invalid: status.conditions[1]: Duplicate value: {\"type\":\"Ready\"}"
    );
    // The uniqueness pass follows schema validation: its errors come last.
    let both = json!({"status": {"phase": "Sleeping", "conditions": [{"type": "A", "status": "x"}, {"type": "A", "status": "y"}]}});
    let status = status_of(
        api.patch_status("web", &PatchParams::default(), &Patch::Merge(&both))
            .await,
    );
    let fields: Vec<&str> = status
        .details
        .as_ref()
        .unwrap()
        .causes
        .iter()
        .map(|c| c.field.as_str())
        .collect();
    assert_eq!(fields, ["status.phase", "status.conditions[1]"]);
});

/// The WebApp CRD with CEL rules: on spec (one with a `fieldPath` and a `reason`), on a field
/// (one with a `messageExpression`), and a transition rule.
fn webapp_crd_with_rules() -> CustomResourceDefinition {
    let mut crd = serde_json::to_value(webapp_crd()).unwrap();
    let spec = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["x-kubernetes-validations"] = json!([
        {"rule": "self.replicas <= 5 || self.image.startsWith('registry.example.com/')", "message": "more than 5 replicas need the internal registry"},
        {"rule": "self.port != 83", "fieldPath": ".port", "reason": "FieldValueForbidden", "message": "port 83 is taken"},
    ]);
    spec["properties"]["image"]["x-kubernetes-validations"] =
        json!([{"rule": "self == oldSelf", "message": "image is immutable"}]);
    spec["properties"]["port"]["x-kubernetes-validations"] = json!([
        {"rule": "self != 81"},
        {"rule": "self != 82", "messageExpression": "'port 82 is reserved'"},
    ]);
    serde_json::from_value(crd).unwrap()
}

scenario!(
    cel_rules_are_evaluated_with_old_self_on_updates,
    async |backend| {
        let env = environment(backend)
            .crd(webapp_crd_with_rules())
            .start()
            .await
            .unwrap();
        let api = webapps(env.client(), "default");
        let refused = async |spec: serde_json::Value| {
            status_of(
                api.create(&PostParams::default(), &webapp("big", spec))
                    .await,
            )
        };
        let invalid = "WebApp.app.example.com \"big\" is invalid: ";

        // An object's value is left out of the message; a scalar's is shown.
        let status = refused(json!({"image": "nginx", "replicas": 6})).await;
        assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
        assert_eq!(
            status.message,
            format!(
                "{invalid}spec: Invalid value: more than 5 replicas need the internal registry"
            )
        );
        let status = refused(json!({"image": "nginx", "port": 81})).await;
        assert_eq!(
            status.message,
            format!("{invalid}spec.port: Invalid value: 81: failed rule: self != 81")
        );
        let status = refused(json!({"image": "nginx", "port": 82})).await;
        assert_eq!(
            status.message,
            format!("{invalid}spec.port: Invalid value: 82: port 82 is reserved")
        );
        let status = refused(json!({"image": "nginx", "port": 83})).await;
        assert_eq!(
            status.message,
            format!("{invalid}spec.port: Forbidden: port 83 is taken")
        );
        assert_eq!(
            status.details.unwrap().causes[0].reason,
            "FieldValueForbidden"
        );

        // A bound violation does not stop the rules; a missing required field does.
        let status = refused(json!({"image": "nginx", "replicas": 6, "port": 0})).await;
        assert_eq!(
            status.message,
            format!(
                "{invalid}[spec.port: Invalid value: 0: spec.port in body should be greater than or equal to 1, \
                 spec: Invalid value: more than 5 replicas need the internal registry]"
            )
        );
        let status = refused(json!({"replicas": 6})).await;
        assert_eq!(
            status.message,
            format!(
                "{invalid}[spec.image: Required value, <nil>: Invalid value: null: some validation rules \
                 were not checked because the object was invalid; correct the existing errors to \
                 complete validation]"
            )
        );

        api.create(
            &PostParams::default(),
            &webapp("web", json!({"image": "nginx"})),
        )
        .await
        .unwrap();
        let status = status_of(
            api.patch(
                "web",
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"image": "httpd"}})),
            )
            .await,
        );
        assert_eq!(
            status.message,
            "WebApp.app.example.com \"web\" is invalid: spec.image: Invalid value: \"httpd\": image is immutable"
        );
    }
);
