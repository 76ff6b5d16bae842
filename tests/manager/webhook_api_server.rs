//! Admission and conversion webhooks called by the API server, one test for both backends:
//!
//! - with `KUBEBUILDER_ASSETS`, the real kube-apiserver calls the manager's webhook server over
//!   TLS, as controller-runtime's envtest `WebhookInstallOptions` sets it up: the webhook
//!   configurations of `config/webhook/manifests.yaml` pointed at
//!   `https://127.0.0.1:<port>/<path>` with the self-signed certificate as `caBundle`, and the
//!   CRD's conversion webhook at `/convert`;
//! - without, the testkit calls the same `Webhooks` in-process (`ApiServer::with_webhooks`).
//!
//! Objects come back defaulted, denials and warnings reach the client as the API server words
//! them, and v2 reads and writes go through the conversion.

use std::time::Duration;

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use kube::Api;
use kube::api::{DeleteParams, PostParams};
use serde_json::{Value, json};
use webhook_support::{v1, v2};
use webop_envtest::Environment;
use webop_manager::{Manager, Options};
use webop_testkit::ApiServer;

use crate::webhook_support;

/// The manager serving the webhooks (its client is not used by the webhook server).
async fn serving_manager() -> Manager {
    let client = ApiServer::new().client();
    let manager = Manager::with_client(client, Options::default(), "webhook-envtest")
        .with_webhooks(webhook_support::webhooks());
    // The server runs on a task of its own until the test ends.
    manager.serve().await.unwrap();
    manager
}

fn client_config(manager: &Manager, path: &str) -> Value {
    let port = manager.webhook_address().unwrap().port();
    json!({"url": format!("https://127.0.0.1:{port}{path}"), "caBundle": manager.webhook_ca_bundle()})
}

/// The CRD with `conversion.strategy: Webhook` at the manager's `/convert`.
fn crd(manager: &Manager) -> Value {
    let mut crd = serde_json::to_value(webhook_support::crd()).unwrap();
    crd["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": client_config(manager, "/convert"),
        "conversionReviewVersions": ["v1"],
    }});
    crd
}

/// `config/webhook/manifests.yaml`, with each service replaced by the manager's URL.
async fn install_webhook_configurations(client: &kube::Client, manager: &Manager) {
    let documents =
        webop::webhook::configuration_documents(&webhook_support::manifests(), &[]).unwrap();
    for mut document in documents {
        for webhook in document["webhooks"].as_array_mut().unwrap() {
            let path = webhook["clientConfig"]["service"]["path"]
                .as_str()
                .unwrap()
                .to_owned();
            webhook["clientConfig"] = client_config(manager, &path);
        }
        let params = PostParams::default();
        if document["kind"] == "MutatingWebhookConfiguration" {
            let api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
            api.create(&params, &serde_json::from_value(document).unwrap())
                .await
                .unwrap();
        } else {
            let api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
            api.create(&params, &serde_json::from_value(document).unwrap())
                .await
                .unwrap();
        }
    }
}

fn webapp(name: &str, replicas: Option<i32>) -> v1::WebApp {
    v1::WebApp::new(
        name,
        v1::WebAppSpec {
            image: "nginx:1.27".into(),
            replicas,
        },
    )
}

/// Waits until the API server calls the defaulting webhook (its configuration is watched, not
/// read on each request), with dry-run creates that store nothing.
async fn until_webhooks_are_called(api: &Api<v1::WebApp>) {
    let dry_run = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    let waiting = async {
        loop {
            if let Ok(created) = api.create(&dry_run, &webapp("probe", None)).await
                && created.spec.replicas == Some(1)
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), waiting)
        .await
        .expect("the webhooks are called");
    assert!(
        api.get_opt("probe").await.unwrap().is_none(),
        "dry-run stored nothing"
    );
}

/// POSTs `object` and returns the `Warning` headers of the response.
async fn create_with_warnings(client: &kube::Client, object: &v1::WebApp) -> (u16, Vec<String>) {
    let request = http::Request::post("/apis/app.example.com/v1/namespaces/default/webapps")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(object).unwrap().into())
        .unwrap();
    let response = client.send(request).await.unwrap();
    let warnings = response
        .headers()
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    (response.status().as_u16(), warnings)
}

fn api_error(error: kube::Error) -> (u16, String) {
    match error {
        kube::Error::Api(status) => (status.code, status.message),
        other => panic!("not an API error: {other}"),
    }
}

#[tokio::test]
async fn the_api_server_calls_the_webhooks() {
    let manager = serving_manager().await;
    let crd = serde_json::from_value(crd(&manager)).unwrap();
    let env = Environment::builder().crd(crd).start().await.unwrap();
    let client = env.client();
    match env.testkit() {
        Some(server) => drop(server.clone().with_webhooks(webhook_support::webhooks())),
        None => install_webhook_configurations(&client, &manager).await,
    }
    let api: Api<v1::WebApp> = Api::namespaced(client.clone(), "default");
    until_webhooks_are_called(&api).await;

    let created = api
        .create(&PostParams::default(), &webapp("web", None))
        .await
        .unwrap();
    assert_eq!(
        created.spec.replicas,
        Some(1),
        "defaulted by the mutating webhook"
    );

    let (code, warnings) = create_with_warnings(&client, &webapp("many", Some(7))).await;
    assert_eq!(code, 201);
    assert_eq!(warnings, ["299 - \"7 replicas: consider an autoscaler\""]);

    let denied = api
        .create(&PostParams::default(), &webapp("big", Some(11)))
        .await
        .unwrap_err();
    assert_eq!(
        api_error(denied),
        (
            422,
            "admission webhook \"vwebapp-v1.kb.io\" denied the request: WebApp.app.example.com \
             \"big\" is invalid: spec.replicas: Invalid value: 11: must be at most 10"
                .to_owned()
        )
    );
    let (code, warnings) = create_with_warnings(&client, &webapp("big", Some(11))).await;
    assert_eq!(code, 422);
    assert_eq!(
        warnings,
        ["299 - \"replicas above 10 need a bigger node pool\""]
    );

    let mut protected = webapp("kept", None);
    protected.metadata.labels = Some([("protected".to_owned(), "true".to_owned())].into());
    api.create(&PostParams::default(), &protected)
        .await
        .unwrap();
    let refused = api
        .delete("kept", &DeleteParams::default())
        .await
        .unwrap_err();
    assert_eq!(
        api_error(refused),
        (
            403,
            "admission webhook \"vwebapp-v1.kb.io\" denied the request: kept is protected: \
             remove its `protected` label first"
                .to_owned()
        )
    );

    // v2 reads and writes go through /convert; a v2 write is defaulted by the v1 webhook
    // (matchPolicy Equivalent: the API server converts it to v1 for the webhook).
    let v2_api: Api<v2::WebApp> = Api::namespaced(client.clone(), "default");
    let read = v2_api.get("web").await.unwrap();
    assert_eq!(
        read.spec.image,
        v2::Image {
            repository: "nginx".into(),
            tag: Some("1.27".into())
        }
    );
    let spec = v2::WebAppSpec {
        image: v2::Image {
            repository: "httpd".into(),
            tag: None,
        },
        replicas: None,
    };
    let written = v2_api
        .create(&PostParams::default(), &v2::WebApp::new("v2-web", spec))
        .await
        .unwrap();
    assert_eq!(written.spec.replicas, Some(1));
    let stored = api.get("v2-web").await.unwrap();
    assert_eq!(
        (stored.spec.image.as_str(), stored.spec.replicas),
        ("httpd", Some(1))
    );
    let broken = v2::WebAppSpec {
        image: v2::Image {
            repository: "nginx".into(),
            tag: Some("a:b".into()),
        },
        replicas: None,
    };
    let failed = v2_api
        .create(&PostParams::default(), &v2::WebApp::new("broken", broken))
        .await
        .unwrap_err();
    assert_eq!(
        api_error(failed),
        (
            500,
            "Internal error occurred: Internal error occurred: conversion webhook for \
             app.example.com/v2, Kind=WebApp failed: spec.image.tag \"a:b\" cannot be written \
             as a v1 image"
                .to_owned()
        )
    );
    if !env.is_real() {
        return;
    }
    let metrics = manager.metrics().encode();
    assert!(
        metrics.contains(
            "controller_runtime_webhook_requests_total{webhook=\"/convert\",code=\"200\"}"
        ),
        "{metrics}"
    );
}
