//! `Environment::builder().webhooks(..)`: what a generated project's tests write to have the
//! API server call its webhooks, on a real kube-apiserver (`KUBEBUILDER_ASSETS`: a webhook
//! server over TLS, configurations and the CRD's conversion installed, as envtest's
//! `WebhookInstallOptions`) or on the testkit.

use k8s_openapi::api::admissionregistration::v1::MutatingWebhookConfiguration;
use kube::Api;
use kube::api::PostParams;
use webhook_support::{v1, v2};
use webop_envtest::Environment;

use crate::webhook_support;

#[tokio::test]
async fn an_environment_with_webhooks_defaults_validates_and_converts() {
    let env = Environment::builder()
        .crd(webhook_support::crd())
        .webhooks(webhook_support::webhooks())
        .start()
        .await
        .unwrap();
    eprintln!("on {}", env.describe());
    let api: Api<v1::WebApp> = Api::namespaced(env.client(), "default");
    let spec = v1::WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: None,
    };
    let created = api
        .create(
            &PostParams::default(),
            &v1::WebApp::new("web", spec.clone()),
        )
        .await
        .unwrap();
    assert_eq!(
        created.spec.replicas,
        Some(1),
        "the very first write is defaulted"
    );

    let too_many = v1::WebAppSpec {
        replicas: Some(11),
        ..spec
    };
    let refused = api
        .create(&PostParams::default(), &v1::WebApp::new("big", too_many))
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("not a denial: {refused}");
    };
    assert_eq!(status.code, 422);
    assert!(
        status.message.starts_with(
            "admission webhook \"vwebapp-v1.kb.io\" denied the request: WebApp.app.example.com"
        ),
        "{}",
        status.message
    );

    let v2_api: Api<v2::WebApp> = Api::namespaced(env.client(), "default");
    let read = v2_api.get("web").await.unwrap();
    assert_eq!(read.spec.image.tag.as_deref(), Some("1.27"));
    assert_eq!(read.spec.replicas, Some(1));
}

/// On a real kube-apiserver, a webhook whose kind the API server does not serve (its CRD not
/// given, as for another operator's kind) is installed as kube-apiserver takes it, and the
/// environment starts: the tests of the kinds it does serve run. (The testkit installs no webhook
/// configurations: it calls the webhooks in-process, so there is nothing to check there.)
#[tokio::test]
async fn a_webhook_of_a_kind_the_api_server_does_not_serve_is_installed_as_kube_apiserver_takes_it()
{
    if std::env::var_os("KUBEBUILDER_ASSETS").is_none() {
        return;
    }
    let env = Environment::builder()
        .webhooks(webhook_support::webhooks())
        .start()
        .await
        .expect("the environment starts without the kind's CRD");
    let api: Api<MutatingWebhookConfiguration> = Api::all(env.client());
    let installed = api.get("webop-envtest-mutating").await.unwrap();
    let resources: Vec<String> = installed
        .webhooks
        .unwrap_or_default()
        .iter()
        .flat_map(|hook| hook.rules.clone().unwrap_or_default())
        .flat_map(|rule| rule.resources.unwrap_or_default())
        .collect();
    assert!(resources.iter().any(|r| r == "webapps"), "{resources:?}");
}
