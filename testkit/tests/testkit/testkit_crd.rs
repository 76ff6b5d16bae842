//! Custom resources: serving from an installed CRD, status subresource separation, patch types,
//! CRD deletion. Schema defaulting, pruning, validation with Kubernetes' 422 errors and CEL
//! rules are in testkit_crd_validation.rs. Every test is a `scenario!`: the same body runs on
//! the testkit and on a real kube-apiserver.

use crate::testkit_common;

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
