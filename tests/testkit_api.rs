//! The core API semantics of the testkit: CRUD with optimistic concurrency, list selectors and
//! pagination, the patch formats, generation and status, built-in Secret rules (each a
//! `scenario!`, run on the testkit and on a real kube-apiserver), and the loopback HTTP
//! listener (testkit-only: it serves the in-process server).

#[macro_use]
mod testkit_common;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams, ObjectMeta, Patch, PatchParams, PostParams};
use serde_json::json;
use testkit_common::{plain, status_of, within};
use webop_testkit::ApiServer;

fn config_map(name: &str, labels: &[(&str, &str)]) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            labels: Some(
                labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
            ..Default::default()
        },
        data: Some([("k".to_string(), "v".to_string())].into()),
        ..Default::default()
    }
}

scenario!(crud_with_optimistic_concurrency, async |backend| {
    let env = plain(backend).await;
    let api: Api<ConfigMap> = Api::default_namespaced(env.client());
    let created = api
        .create(&PostParams::default(), &config_map("a", &[]))
        .await
        .unwrap();
    assert!(created.metadata.uid.is_some() && created.metadata.creation_timestamp.is_some());
    assert_eq!(
        status_of(
            api.create(&PostParams::default(), &config_map("a", &[]))
                .await
        )
        .reason,
        "AlreadyExists"
    );

    let mut stale = created.clone();
    let mut fresh = created.clone();
    fresh.data = Some([("k".to_string(), "new".to_string())].into());
    let replaced = api
        .replace("a", &PostParams::default(), &fresh)
        .await
        .unwrap();
    assert!(
        replaced.resource_version().unwrap().parse::<u64>().unwrap()
            > created.resource_version().unwrap().parse::<u64>().unwrap()
    );
    stale.data = Some([("k".to_string(), "lost".to_string())].into());
    let conflict = status_of(api.replace("a", &PostParams::default(), &stale).await);
    assert_eq!(conflict.code, 409);
    assert_eq!(
        conflict.message,
        "Operation cannot be fulfilled on configmaps \"a\": the object has been modified; please apply your changes to the latest version and try again"
    );
    // An update that changes nothing is a no-op: no new resourceVersion.
    let again = api
        .replace("a", &PostParams::default(), &replaced)
        .await
        .unwrap();
    assert_eq!(again.resource_version(), replaced.resource_version());

    api.delete("a", &DeleteParams::default()).await.unwrap();
    let missing = status_of(api.get("a").await);
    assert_eq!(
        (missing.code, missing.message.as_str()),
        (404, "configmaps \"a\" not found")
    );
    let generated = api
        .create(
            &PostParams::default(),
            &ConfigMap {
                metadata: ObjectMeta {
                    generate_name: Some("gen-".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(generated.name_any().starts_with("gen-") && generated.name_any().len() == 9);
    let invalid = status_of(
        api.create(&PostParams::default(), &config_map("Not_Valid", &[]))
            .await,
    );
    assert_eq!(
        (
            invalid.code,
            invalid.details.unwrap().causes[0].field.as_str()
        ),
        (422, "metadata.name")
    );
});

scenario!(
    lists_filter_by_labels_and_fields_and_paginate,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        for (name, tier) in [
            ("a", "web"),
            ("b", "db"),
            ("c", "web"),
            ("d", "cache"),
            ("e", "web"),
        ] {
            api.create(&PostParams::default(), &config_map(name, &[("tier", tier)]))
                .await
                .unwrap();
        }
        let names = |list: kube::core::ObjectList<ConfigMap>| {
            list.items
                .iter()
                .map(ResourceExt::name_any)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(
                api.list(&ListParams::default().labels("tier=web"))
                    .await
                    .unwrap()
            ),
            ["a", "c", "e"]
        );
        assert_eq!(
            names(
                api.list(&ListParams::default().labels("tier in (db,cache)"))
                    .await
                    .unwrap()
            ),
            ["b", "d"]
        );
        assert_eq!(
            names(
                api.list(&ListParams::default().labels("tier!=web,tier"))
                    .await
                    .unwrap()
            ),
            ["b", "d"]
        );
        assert_eq!(
            names(
                api.list(&ListParams::default().fields("metadata.name=c"))
                    .await
                    .unwrap()
            ),
            ["c"]
        );
        // The message depends on the kind's field label conversion.
        assert_eq!(
            status_of(api.list(&ListParams::default().fields("data.k=v")).await).message,
            "\"data.k\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
        let secrets: Api<Secret> = Api::default_namespaced(env.client());
        assert_eq!(
            status_of(
                secrets
                    .list(&ListParams::default().fields("data.k=v"))
                    .await
            )
            .message,
            "field label not supported: data.k"
        );
        let typed = ListParams::default().fields("type=Opaque");
        assert!(secrets.list(&typed).await.unwrap().items.is_empty());
        let jobs: Api<k8s_openapi::api::batch::v1::Job> = Api::default_namespaced(env.client());
        assert_eq!(
            status_of(jobs.list(&ListParams::default().fields("spec.x=1")).await).message,
            "field label \"spec.x\" not supported for Job"
        );

        let first = api.list(&ListParams::default().limit(2)).await.unwrap();
        let token = first.metadata.continue_.clone().unwrap();
        assert_eq!(first.metadata.remaining_item_count, Some(3));
        assert_eq!(names(first), ["a", "b"]);
        let second = api
            .list(&ListParams::default().limit(2).continue_token(&token))
            .await
            .unwrap();
        let token = second.metadata.continue_.clone().unwrap();
        assert_eq!(names(second), ["c", "d"]);
        let last = api
            .list(&ListParams::default().limit(2).continue_token(&token))
            .await
            .unwrap();
        assert!(last.metadata.continue_.is_none());
        assert_eq!(names(last), ["e"]);
        // Everything in the namespace list is also in the all-namespaces list (where kube-system
        // has ConfigMaps of its own on a real server).
        assert_eq!(
            Api::<ConfigMap>::all(env.client())
                .list(&ListParams::default().labels("tier"))
                .await
                .unwrap()
                .items
                .len(),
            5
        );
    }
);

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

#[tokio::test]
async fn loopback_http_listener_serves_the_same_api() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    api.create(&PostParams::default(), &config_map("shared", &[]))
        .await
        .unwrap();
    let address = server.serve_http(([127, 0, 0, 1], 0).into()).await.unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = "GET /api/v1/namespaces/default/configmaps/shared HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    within("HTTP response", stream.read_to_string(&mut response))
        .await
        .unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(response.contains("\"name\":\"shared\""), "{response}");
}

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
