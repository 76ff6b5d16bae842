//! The testkit's admission and conversion webhooks on the paths a real API server's tests
//! rarely take: generated names, patches, server-side apply, watches of a non-storage version.
//! `webhook_api_server.rs` holds the behaviour compared with kube-apiserver.

use futures::StreamExt;
use kube::Api;
use kube::api::{Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::json;
use webhook_support::{v1, v2};
use webop_testkit::ApiServer;

use crate::webhook_support;

fn server() -> (ApiServer, Api<v1::WebApp>, Api<v2::WebApp>) {
    let server = ApiServer::new().with_webhooks(webhook_support::webhooks());
    server.install_crd(webhook_support::crd()).unwrap();
    let client = server.client();
    let v1_api = Api::namespaced(client.clone(), "default");
    (server, v1_api, Api::namespaced(client, "default"))
}

fn spec(replicas: Option<i32>) -> v1::WebAppSpec {
    v1::WebAppSpec {
        image: "nginx:1.27".into(),
        replicas,
    }
}

#[tokio::test]
async fn generated_names_patches_and_applies_are_admitted() {
    let (_server, api, _) = server();
    let mut generated = v1::WebApp::new("", spec(None));
    generated.metadata.name = None;
    generated.metadata.generate_name = Some("web-".into());
    let created = api
        .create(&PostParams::default(), &generated)
        .await
        .unwrap();
    let name = created.metadata.name.clone().unwrap();
    assert!(name.starts_with("web-"));
    assert_eq!(created.spec.replicas, Some(1));
    assert_eq!(
        api.get(&name).await.unwrap().metadata.uid,
        created.metadata.uid
    );

    let params = PatchParams::default();
    let too_many = Patch::Merge(json!({"spec": {"replicas": 11}}));
    let kube::Error::Api(status) = api.patch(&name, &params, &too_many).await.unwrap_err() else {
        panic!("a denial");
    };
    assert_eq!(status.code, 422);
    assert!(
        status.message.contains("spec.replicas: Invalid value: 11"),
        "{}",
        status.message
    );
    let cleared = Patch::Merge(json!({"spec": {"replicas": null}}));
    let patched = api.patch(&name, &params, &cleared).await.unwrap();
    assert_eq!(patched.spec.replicas, Some(1), "defaulted again on update");

    let apply = PatchParams::apply("test");
    let applied_object = json!({"apiVersion": "app.example.com/v1", "kind": "WebApp",
                                "metadata": {"name": "applied"}, "spec": {"image": "httpd"}});
    let applied = api
        .patch("applied", &apply, &Patch::Apply(applied_object))
        .await
        .unwrap();
    assert_eq!(applied.spec.replicas, Some(1));
}

#[tokio::test]
async fn watches_of_another_version_are_converted() {
    let (_server, api, v2_api) = server();
    let mut events = v2_api
        .watch(&WatchParams::default(), "0")
        .await
        .unwrap()
        .boxed();
    api.create(
        &PostParams::default(),
        &v1::WebApp::new("web", spec(Some(2))),
    )
    .await
    .unwrap();
    let Some(Ok(WatchEvent::Added(seen))) = events.next().await else {
        panic!("an ADDED event");
    };
    assert_eq!(
        seen.spec.image,
        v2::Image {
            repository: "nginx".into(),
            tag: Some("1.27".into())
        }
    );
    assert_eq!(seen.spec.replicas, Some(2));
}
