//! The core API semantics of the testkit: CRUD with optimistic concurrency, list selectors and
//! pagination (each a `scenario!`, run on the testkit and on a real kube-apiserver), and the
//! loopback HTTP listener (testkit-only: it serves the in-process server). The patch formats,
//! generation and status, and the write rules of built-in kinds are in testkit_api_patch.rs.

use crate::testkit_common;

use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams, ObjectMeta, PostParams};
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
