//! Writes the testkit checks like kube-apiserver: the patch formats (JSON merge, strategic,
//! JSON patch), generation and status, and built-in kinds' rules (Secrets' `stringData` and
//! immutability, unknown fields dropped or refused). Each is a `scenario!`, run on the testkit
//! and on a real kube-apiserver.

use crate::testkit_common;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use serde_json::json;
use testkit_common::{plain, status_of};

scenario!(json_merge_and_strategic_patches, async |backend| {
    let env = plain(backend).await;
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    let deployment: Deployment = serde_json::from_value(json!({
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
                {"name": "app", "image": "app:1", "env": [{"name": "A", "value": "1"}]},
                {"name": "sidecar", "image": "proxy:1"}
            ]}}
        }
    }))
    .unwrap();
    let created = deployments
        .create(&PostParams::default(), &deployment)
        .await
        .unwrap();
    assert_eq!(created.metadata.generation, Some(1));

    let strategic = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:2", "env": [{"name": "B", "value": "2"}]}]}}}});
    let patched = deployments
        .patch("web", &PatchParams::default(), &Patch::Strategic(strategic))
        .await
        .unwrap();
    let containers = &patched.spec.template.spec.as_ref().unwrap().containers;
    assert_eq!(
        containers
            .iter()
            .map(|c| (c.name.as_str(), c.image.as_deref().unwrap()))
            .collect::<Vec<_>>(),
        [("app", "app:2"), ("sidecar", "proxy:1")]
    );
    // A new item of a merged list comes before the live ones (kube-apiserver's element order).
    assert_eq!(
        containers[0]
            .env
            .as_ref()
            .unwrap()
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>(),
        ["B", "A"]
    );
    assert_eq!(patched.metadata.generation, Some(2));

    // A merge patch replaces lists whole.
    let merge =
        json!({"spec": {"template": {"spec": {"containers": [{"name": "only", "image": "x"}]}}}});
    let merged = deployments
        .patch("web", &PatchParams::default(), &Patch::Merge(&merge))
        .await
        .unwrap();
    assert_eq!(merged.spec.template.spec.unwrap().containers.len(), 1);

    let json_patch: json_patch::Patch = serde_json::from_value(json!([
        {"op": "test", "path": "/spec/replicas", "value": 1},
        {"op": "replace", "path": "/spec/replicas", "value": 3}
    ]))
    .unwrap();
    let scaled = deployments
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Json::<()>(json_patch.clone()),
        )
        .await
        .unwrap();
    assert_eq!(scaled.spec.replicas, Some(3));
    let replace_all: json_patch::Patch =
        serde_json::from_value(json!([{"op": "replace", "path": "", "value": [1]}])).unwrap();
    let not_object = status_of(
        deployments
            .patch(
                "web",
                &PatchParams::default(),
                &Patch::Json::<()>(replace_all),
            )
            .await,
    );
    assert_eq!(not_object.code, 422);
    let failed = status_of(
        deployments
            .patch(
                "web",
                &PatchParams::default(),
                &Patch::Json::<()>(json_patch),
            )
            .await,
    );
    assert_eq!(failed.code, 422);

    // Labels alone do not bump generation; a status write cannot change spec.
    let labelled = deployments
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Merge(&json!({"metadata": {"labels": {"a": "b"}}})),
        )
        .await
        .unwrap();
    assert_eq!(labelled.metadata.generation, Some(4));
    let status = json!({"spec": {"replicas": 9}, "status": {"replicas": 3, "readyReplicas": 3}});
    let with_status = deployments
        .patch_status("web", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();
    assert_eq!(
        (
            with_status.spec.replicas,
            with_status.status.unwrap().ready_replicas
        ),
        (Some(3), Some(3))
    );
});

scenario!(
    secrets_fold_string_data_and_immutable_objects_refuse_changes,
    async |backend| {
        let env = plain(backend).await;
        let secrets: Api<Secret> = Api::default_namespaced(env.client());
        let secret = Secret {
            metadata: ObjectMeta {
                name: Some("creds".into()),
                ..Default::default()
            },
            string_data: Some([("user".to_string(), "admin".to_string())].into()),
            immutable: Some(true),
            ..Default::default()
        };
        let created = secrets
            .create(&PostParams::default(), &secret)
            .await
            .unwrap();
        assert!(created.string_data.is_none());
        assert_eq!(created.data.unwrap()["user"].0, b"admin");
        let change = json!({"stringData": {"user": "root"}});
        let refused = status_of(
            secrets
                .patch("creds", &PatchParams::default(), &Patch::Merge(&change))
                .await,
        );
        assert_eq!(
            refused.message,
            "Secret \"creds\" is invalid: data: Forbidden: field is immutable when `immutable` is set"
        );
        let labelled = json!({"metadata": {"labels": {"a": "b"}}});
        secrets
            .patch("creds", &PatchParams::default(), &Patch::Merge(&labelled))
            .await
            .unwrap();
    }
);

scenario!(
    unknown_fields_of_built_in_kinds_are_dropped_or_refused,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        let with_colour = |name: &str| -> ConfigMap {
            serde_json::from_value(json!({"metadata": {"name": name}, "data": {"k": "v"}})).unwrap()
        };
        // Decoding into the Go type drops what it does not know.
        let raw: Api<kube::api::DynamicObject> = Api::namespaced_with(
            env.client(),
            "default",
            &kube::api::ApiResource::erase::<ConfigMap>(&()),
        );
        let mut object: kube::api::DynamicObject =
            serde_json::from_value(serde_json::to_value(with_colour("cm")).unwrap()).unwrap();
        object.types = Some(kube::api::TypeMeta {
            api_version: "v1".into(),
            kind: "ConfigMap".into(),
        });
        object.data["colour"] = json!("blue");
        let created = raw.create(&PostParams::default(), &object).await.unwrap();
        assert_eq!(created.data.get("colour"), None);

        // A strict strategic merge patch shows the patch as Go prints the decoded map.
        let strict = PatchParams::default().validation(kube::api::ValidationDirective::Strict);
        let status = status_of(
            api.patch(
                "cm",
                &strict,
                &Patch::Strategic(json!({"colour": "blue", "data": {"k": "w"}})),
            )
            .await,
        );
        assert_eq!(
            status.message,
            " \"\" is invalid: patch: Invalid value: \"map[colour:blue data:map[k:w]]\": strict \
             decoding error: unknown field \"colour\""
        );

        // Server-side apply names the first unknown field it meets.
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "default"}, "colour": "blue"});
        let status = status_of(
            api.patch("cm", &PatchParams::apply("tester"), &Patch::Apply(&config))
                .await,
        );
        assert_eq!(
            (status.code, status.message.as_str()),
            (
                500,
                "failed to create typed patch object (default/cm; /v1, Kind=ConfigMap): .colour: \
                 field not declared in schema"
            )
        );
    }
);
