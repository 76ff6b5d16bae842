//! Custom resources: serving from an installed CRD, schema defaulting, pruning, validation with
//! Kubernetes' 422 errors, CEL rules, status subresource separation, CRD deletion. Every test
//! is a `scenario!`: the same body runs on the testkit and on a real kube-apiserver.

#[macro_use]
mod testkit_common;

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use kube::discovery::Discovery;
use kube::runtime::wait::{await_condition, conditions};
use serde_json::json;
use testkit_common::{
    causes, create_crd, current_version, environment, eventually, plain, status_of, until_gone,
    until_served, webapp, webapp_crd, webapps,
};
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
    installing_a_crd_serves_its_kind_in_discovery,
    async |backend| {
        let env = plain(backend).await;
        let client = env.client();
        let before = Discovery::new(client.clone()).run().await.unwrap();
        assert!(!before.groups().any(|g| g.name() == "app.example.com"));
        create_crd(&client, &webapp_crd()).await;
        let after = Discovery::new(client.clone()).run().await.unwrap();
        let group = after
            .get("app.example.com")
            .expect("app.example.com is discovered");
        let (resource, caps) = group
            .recommended_kind("WebApp")
            .expect("WebApp is discovered");
        assert_eq!(resource.plural, "webapps");
        assert!(
            caps.subresources
                .iter()
                .any(|(r, _)| r.plural == "webapps/status" || r.plural == "status")
        );
        let aggregated = Discovery::new(client.clone())
            .run_aggregated()
            .await
            .unwrap();
        let group = aggregated
            .get("app.example.com")
            .expect("aggregated discovery has app.example.com");
        assert_eq!(
            group.recommended_kind("WebApp").unwrap().0.plural,
            "webapps"
        );
        assert!(
            aggregated
                .get("")
                .and_then(|g| g.recommended_kind("ConfigMap"))
                .is_some()
        );
        // The built-ins an operator touches are discovered too.
        for (group, kind) in [
            ("", "ConfigMap"),
            ("apps", "Deployment"),
            ("coordination.k8s.io", "Lease"),
            ("events.k8s.io", "Event"),
        ] {
            assert!(
                after
                    .get(group)
                    .and_then(|g| g.recommended_kind(kind))
                    .is_some(),
                "{group}/{kind}"
            );
        }
    }
);

scenario!(
    creating_the_crd_through_the_client_works_the_same,
    async |backend| {
        let env = plain(backend).await;
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        let created = crds
            .create(&PostParams::default(), &webapp_crd())
            .await
            .unwrap();
        // Created, not yet established: kube-apiserver's controllers accept the names and
        // establish the CRD in a write of their own, a moment later.
        let status = created.status.unwrap();
        assert_eq!(status.conditions, None);
        assert_eq!(
            status
                .accepted_names
                .map(|names| (names.kind, names.plural))
                .unwrap_or_default(),
            (String::new(), String::new())
        );
        assert_eq!(status.stored_versions, Some(vec!["v1".to_string()]));
        let established = eventually(
            "the CRD to be established",
            await_condition(
                crds.clone(),
                "webapps.app.example.com",
                conditions::is_crd_established(),
            ),
        )
        .await
        .unwrap()
        .unwrap();
        let status = established.status.unwrap();
        assert_eq!(status.accepted_names.unwrap().kind, "WebApp");
        let conditions: Vec<(String, String, Option<String>)> = status
            .conditions
            .unwrap()
            .into_iter()
            .map(|c| (c.type_, c.status, c.reason))
            .collect();
        assert_eq!(
            conditions,
            [
                (
                    "NamesAccepted".into(),
                    "True".into(),
                    Some("NoConflicts".into())
                ),
                (
                    "Established".into(),
                    "True".into(),
                    Some("InitialNamesAccepted".into())
                ),
            ]
        );
        let controller = established
            .metadata
            .managed_fields
            .unwrap_or_default()
            .into_iter()
            .find(|m| m.subresource.as_deref() == Some("status"))
            .expect("the controllers' status write is recorded");
        assert_eq!(controller.manager.as_deref(), Some("kube-apiserver"));
        until_served(&env.client(), &webapp_crd()).await;
        let api = webapps(env.client(), "default");
        api.create(
            &PostParams::default(),
            &webapp("a", json!({"image": "nginx"})),
        )
        .await
        .unwrap();

        let mut wrong = webapp_crd();
        wrong.metadata.name = Some("wrong.app.example.com".into());
        let status = status_of(crds.create(&PostParams::default(), &wrong).await);
        assert_eq!(
            (status.code, status.message.as_str()),
            (
                422,
                "CustomResourceDefinition.apiextensions.k8s.io \"wrong.app.example.com\" is invalid: \
                 metadata.name: Invalid value: \"wrong.app.example.com\": must be spec.names.plural+\".\"+spec.group"
            )
        );
        assert!(
            status
                .message
                .contains("must be spec.names.plural+\".\"+spec.group"),
            "{}",
            status.message
        );
    }
);

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

scenario!(
    status_subresource_is_separate_from_the_main_resource,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");
        let mut object = webapp("web", json!({"image": "nginx"}));
        object.data["status"] = json!({"phase": "Running"});
        let created = api.create(&PostParams::default(), &object).await.unwrap();
        assert!(
            created.data.get("status").is_none(),
            "status is dropped on create"
        );

        let status = json!({"status": {"phase": "Running", "availableReplicas": 1, "lastUpdateTime": "2025-01-02T03:04:05Z"}});
        let patched = api
            .patch_status("web", &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap();
        assert_eq!(patched.data["status"]["phase"], "Running");
        assert_eq!(
            patched.metadata.generation,
            Some(1),
            "status writes do not bump generation"
        );

        // Status writes cannot touch spec; main writes cannot touch status.
        let both = json!({"spec": {"replicas": 5}, "status": {"phase": "Failed"}});
        let via_status = api
            .patch_status("web", &PatchParams::default(), &Patch::Merge(&both))
            .await
            .unwrap();
        assert_eq!(
            (
                via_status.data["spec"]["replicas"].clone(),
                via_status.data["status"]["phase"].clone()
            ),
            (json!(1), json!("Failed"))
        );
        let via_main = api
            .patch(
                "web",
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"replicas": 5}, "status": {"phase": "Pending"}})),
            )
            .await
            .unwrap();
        assert_eq!(
            (
                via_main.data["spec"]["replicas"].clone(),
                via_main.data["status"]["phase"].clone()
            ),
            (json!(5), json!("Failed"))
        );
        assert_eq!(
            via_main.metadata.generation,
            Some(2),
            "spec changes bump generation"
        );
        let labelled = api
            .patch(
                "web",
                &PatchParams::default(),
                &Patch::Merge(&json!({"metadata": {"labels": {"a": "b"}}})),
            )
            .await
            .unwrap();
        assert_eq!(
            labelled.metadata.generation,
            Some(2),
            "metadata changes do not"
        );

        let bad = json!({"status": {"phase": "Sleeping", "lastUpdateTime": "yesterday"}});
        let status = status_of(
            api.patch_status("web", &PatchParams::default(), &Patch::Merge(&bad))
                .await,
        );
        // A status write validates the status alone: messages name its fields from there.
        assert_eq!(
            causes(&status),
            [
                "status.lastUpdateTime: Invalid value: \"yesterday\": lastUpdateTime in body must be of type date-time: \"yesterday\"",
                "status.phase: Unsupported value: \"Sleeping\": supported values: \"Pending\", \"Running\", \"Failed\"",
            ]
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

scenario!(
    strategic_merge_is_refused_for_custom_resources,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");
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
                &Patch::Strategic(json!({"spec": {"replicas": 2}})),
            )
            .await,
        );
        assert_eq!(
            (status.code, status.message.as_str()),
            (
                415,
                "the body of the request was in an unknown format - accepted media types include: \
             application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
            )
        );
    }
);

scenario!(
    deleting_the_crd_removes_its_objects_and_kind,
    async |backend| {
        let env = with_webapps(backend).await;
        let api = webapps(env.client(), "default");
        let web = webapp("web", json!({"image": "nginx"}));
        api.create(&PostParams::default(), &web).await.unwrap();
        let from = current_version(&api).await;
        let mut watch = api
            .watch(&WatchParams::default(), &from)
            .await
            .unwrap()
            .boxed();
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        let crd_name = "webapps.app.example.com";
        crds.delete(crd_name, &DeleteParams::default())
            .await
            .unwrap();
        let deleted = eventually("DELETED", watch.try_next()).await.unwrap();
        assert!(matches!(deleted, Some(WatchEvent::Deleted(_))));
        let end = eventually("end of watch", watch.try_next()).await.unwrap();
        assert!(end.is_none(), "the watch ends with its kind");
        until_gone(&crds, crd_name).await;
        assert_eq!(status_of(api.get("web").await).code, 404);
        create_crd(&env.client(), &webapp_crd()).await;
        assert!(
            api.list(&Default::default())
                .await
                .unwrap()
                .items
                .is_empty()
        );
    }
);

// A known difference: kube-apiserver checks a CRD's schema itself (structural rules, forbidden
// keywords, CEL cost and fieldPath validity); the testkit accepts the CRD.
scenario!(crd_schemas_the_api_server_refuses, async |backend| {
    let env = plain(backend).await;
    let mut crd = serde_json::to_value(webapp_crd()).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"] =
        json!({"type": "array", "uniqueItems": true, "items": {"type": "string"}});
    let crd: CustomResourceDefinition = serde_json::from_value(crd).unwrap();
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let answer = crds
        .create(&PostParams::default(), &crd)
        .await
        .map(|_| "created".to_string())
        .map_err(|e| match e {
            kube::Error::Api(status) => status.message,
            other => other.to_string(),
        });
    assert_eq!(
        answer,
        Err(
            "CustomResourceDefinition.apiextensions.k8s.io \"webapps.app.example.com\" is \
             invalid: spec.validation.openAPIV3Schema.properties[spec].properties[tags].\
             uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime \
             complexity becomes quadratic"
                .to_string()
        )
    );
});
