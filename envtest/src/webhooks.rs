//! Webhooks in an envtest environment (feature `webhook`), as controller-runtime's envtest
//! `WebhookInstallOptions` installs them: a webhook server for the [`Webhooks`] on a free port
//! with a self-signed certificate, a Mutating- and a ValidatingWebhookConfiguration calling it at
//! `https://127.0.0.1:<port>/<path>` with that certificate as `caBundle`, and the conversion
//! webhook in the CRDs of the kinds that convert. On the testkit the same `Webhooks` are called
//! in-process ([`webop_testkit::ApiServer::with_webhooks`]).
//!
//! The configurations select what kubebuilder's markers select (CREATE and UPDATE; DELETE too
//! for validation), with kubebuilder's names (`mwebapp-v1.kb.io`). The API server watches
//! webhook configurations, so the start waits until it calls them: each configuration carries a
//! probe webhook for labelled ConfigMaps at a path nothing serves, and a dry-run create of such a
//! ConfigMap fails once the API server calls it.

use std::time::Duration;

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;
use kube::api::{ApiResource, DynamicObject, ListParams, PostParams};
use serde_json::{Value, json};

use super::Error;
use webop_core::webhook::{AdmissionWebhook, CONVERT_PATH, Webhooks};
use webop_manager::{Manager, Options};

/// How long the API server may take to start calling the installed webhooks.
const CALLED_TIMEOUT: Duration = Duration::from_secs(60);
const PROBE_LABEL: &str = "webop.dev/webhook-probe";
const PROBE_PATH: &str = "/webop-envtest-probe";

/// The webhook server of an environment; stopped when dropped.
#[derive(Debug)]
pub(super) struct WebhookServer {
    manager: Manager,
}

impl Drop for WebhookServer {
    fn drop(&mut self) {
        self.manager.shutdown();
    }
}

fn install_error(object: &str, reason: impl std::fmt::Display) -> Error {
    Error::Install {
        object: object.to_owned(),
        reason: reason.to_string(),
    }
}

/// Starts the webhook server and points the CRDs of converting kinds at its `/convert`.
pub(super) async fn serve(
    client: kube::Client,
    webhooks: Webhooks,
    crds: &mut [CustomResourceDefinition],
) -> Result<(WebhookServer, Value), Error> {
    let manager = Manager::with_client(client, Options::default(), "webop-envtest")
        .with_webhooks(webhooks.clone());
    manager
        .serve()
        .await
        .map_err(|e| install_error("the webhook server", e))?;
    let server = WebhookServer { manager };
    let port = server.manager.webhook_address().map_or(0, |a| a.port());
    let base = json!({
        "url": format!("https://127.0.0.1:{port}"),
        "caBundle": server.manager.webhook_ca_bundle(),
    });
    for crd in crds.iter_mut() {
        if webhooks.converts(&crd.spec.group, &crd.spec.names.kind) {
            let conversion = json!({"strategy": "Webhook", "webhook": {
                "clientConfig": client_config(&base, CONVERT_PATH),
                "conversionReviewVersions": ["v1"],
            }});
            crd.spec.conversion = Some(
                serde_json::from_value(conversion)
                    .map_err(|e| install_error("the conversion webhook of a CRD", e))?,
            );
        }
    }
    Ok((server, base))
}

/// Whether the API server serves the kind of `hook`: one of its own (a Pod, a Deployment), or
/// one whose CRD the environment installed.
async fn served(client: &kube::Client, hook: &AdmissionWebhook) -> bool {
    let resource = ApiResource {
        group: hook.group.clone(),
        version: hook.version.clone(),
        api_version: match hook.group.as_str() {
            "" => hook.version.clone(),
            group => format!("{group}/{}", hook.version),
        },
        kind: hook.kind.clone(),
        plural: hook.plural.clone(),
    };
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
    api.list_metadata(&ListParams::default().limit(1))
        .await
        .is_ok()
}

fn client_config(base: &Value, path: &str) -> Value {
    let url = format!("{}{path}", base["url"].as_str().unwrap_or_default());
    json!({"url": url, "caBundle": base["caBundle"]})
}

fn webhook(base: &Value, name: String, path: &str, rule: Value) -> Value {
    json!({
        "name": name, "clientConfig": client_config(base, path), "rules": [rule],
        "failurePolicy": "Fail", "sideEffects": "None", "admissionReviewVersions": ["v1"],
    })
}

/// Installs the webhook configurations of `webhooks` and waits until the API server calls them.
/// A webhook whose kind the API server does not serve (neither one of Kubernetes' own nor a CRD
/// the environment was given) is installed too, as kube-apiserver takes it, and named on stderr.
pub(super) async fn install(
    client: &kube::Client,
    webhooks: &Webhooks,
    base: &Value,
) -> Result<(), Error> {
    let mut lists = [Vec::new(), Vec::new()];
    let hooks = webhooks.admission_webhooks();
    for hook in &hooks {
        if !served(client, hook).await {
            // kube-apiserver takes a webhook of a kind it does not serve, and controller-runtime's
            // envtest installs config/webhook whole: a project's webhook of another operator's
            // kind (cert-manager's Issuer, whose CRD the project does not have) must not stop the
            // tests of its own kinds. What a missing CRD means is said, once.
            eprintln!(
                "webop envtest: the API server serves no {}.{} {}: the webhook {} is installed, \
                 but nothing calls it until the kind's CRD is given (`crd_dir`)",
                hook.plural, hook.group, hook.version, hook.path
            );
        }
        let operations = if hook.mutating {
            json!(["CREATE", "UPDATE"])
        } else {
            json!(["CREATE", "UPDATE", "DELETE"])
        };
        let rule = json!({"apiGroups": [hook.group], "apiVersions": [hook.version],
            "operations": operations, "resources": [hook.plural]});
        let prefix = if hook.mutating { "m" } else { "v" };
        // A kind of the same name and version in two groups (a multigroup project) needs its
        // group in the name, as the multigroup scaffold's `#[webhook]`s have it.
        let shared = hooks.iter().any(|other| {
            other.mutating == hook.mutating
                && other.kind == hook.kind
                && other.version == hook.version
                && other.group != hook.group
        });
        let group = hook.group.split('.').next().unwrap_or_default();
        let name = if shared {
            format!(
                "{prefix}{group}-{}-{}.kb.io",
                hook.kind.to_lowercase(),
                hook.version
            )
        } else {
            format!(
                "{prefix}{}-{}.kb.io",
                hook.kind.to_lowercase(),
                hook.version
            )
        };
        lists[usize::from(!hook.mutating)].push(webhook(base, name, &hook.path, rule));
    }
    let params = PostParams::default();
    for (index, mut list) in lists.into_iter().enumerate() {
        let which = ["mutating", "validating"][index];
        let probe = webhook(
            base,
            format!("{which}-probe.webop.dev"),
            PROBE_PATH,
            json!({"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"],
                   "resources": ["configmaps"]}),
        );
        let mut probe = probe;
        probe["objectSelector"] = json!({"matchLabels": {PROBE_LABEL: which}});
        list.push(probe);
        let configuration = json!({"metadata": {"name": format!("webop-envtest-{which}")},
                                   "webhooks": list});
        let object = format!("the {which} webhook configuration");
        let created = if index == 0 {
            let api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
            let value =
                serde_json::from_value(configuration).map_err(|e| install_error(&object, e))?;
            api.create(&params, &value).await.map(drop)
        } else {
            let api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
            let value =
                serde_json::from_value(configuration).map_err(|e| install_error(&object, e))?;
            api.create(&params, &value).await.map(drop)
        };
        created.map_err(|e| install_error(&object, e))?;
        until_called(client, which).await?;
    }
    Ok(())
}

/// Waits until a dry-run create of a ConfigMap labelled for the `which` probe fails in it.
async fn until_called(client: &kube::Client, which: &str) -> Result<(), Error> {
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let probe: ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": "webop-webhook-probe", "labels": {PROBE_LABEL: which}},
    }))
    .map_err(|e| install_error("the webhook probe", e))?;
    let params = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    let deadline = tokio::time::Instant::now() + CALLED_TIMEOUT;
    loop {
        match api.create(&params, &probe).await {
            Err(kube::Error::Api(status)) if status.message.contains("-probe.webop.dev") => {
                return Ok(());
            }
            _ if tokio::time::Instant::now() > deadline => {
                return Err(install_error(
                    &format!("the {which} webhook configuration"),
                    format!("the API server did not call it within {CALLED_TIMEOUT:?}"),
                ));
            }
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}
