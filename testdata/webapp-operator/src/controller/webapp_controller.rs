//! The WebApp controller: runs the image of each WebApp as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports their state in the WebApp's status.
//!
//! Both children are applied with server-side apply: this controller owns every field it sets,
//! and a change to the WebApp (or a drift of a child) is undone on the next reconcile.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1 as appsv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Api, Client, Resource, ResourceExt};
use tracing::{info, warn};
use webop::prelude::*;

use webapp_operator_api::v1::{WebApp, WebAppPhase, WebAppStatus};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "webapp";
/// The field manager of everything this controller applies.
pub const FIELD_MANAGER: &str = "webapp-operator-webapp";

/// The `app.kubernetes.io/managed-by` label of the children.
pub const MANAGED_BY: &str = "webapp-operator";

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
}

/// Why a reconcile failed; the WebApp is retried.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("WebApp has no {0}")]
    MissingMetadata(&'static str),
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

/// Runs the controller until shutdown (Ctrl-C or SIGTERM).
pub async fn run(client: Client) {
    let webapps = Api::<WebApp>::all(client.clone());
    let deployments = Api::<appsv1::Deployment>::all(client.clone());
    let services = Api::<corev1::Service>::all(client.clone());
    Controller::new(webapps, watcher::Config::default())
        .owns(deployments, watcher::Config::default())
        .owns(services, watcher::Config::default())
        .shutdown_on_signal()
        .run(reconcile, error_policy, Arc::new(Context { client }))
        .for_each(|result| async move {
            crate::controller::record_reconcile(NAME, result.is_ok());
            match result {
                Ok((object, _)) => info!(%object, "reconciled"),
                Err(error) => warn!(%error, "reconcile failed"),
            }
        })
        .await;
}

/// Brings the Deployment and the Service of `webapp` to what its spec asks for, then
/// reports what the Deployment achieved in its status.
#[rbac(groups = ["app.example.com"], resources = ["webapps"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/finalizers"], verbs = ["update"])]
#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = [""], resources = ["services"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = [""], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile(webapp: Arc<WebApp>, ctx: Arc<Context>) -> Result<Action, Error> {
    let namespace = webapp
        .namespace()
        .ok_or(Error::MissingMetadata("namespace"))?;
    let apply = PatchParams::apply(FIELD_MANAGER).force();

    let deployment = desired_deployment(&webapp)?;
    let deployments = Api::<appsv1::Deployment>::namespaced(ctx.client.clone(), &namespace);
    let deployment = deployments
        .patch(&deployment.name_any(), &apply, &Patch::Apply(&deployment))
        .await?;

    let service = desired_service(&webapp)?;
    let services = Api::<corev1::Service>::namespaced(ctx.client.clone(), &namespace);
    services
        .patch(&service.name_any(), &apply, &Patch::Apply(&service))
        .await?;

    let now = metav1::Time(k8s_openapi::jiff::Timestamp::now());
    let status = observed_status(&webapp, &deployment, now);
    if webapp.status.as_ref() != Some(&status) {
        let webapps = Api::<WebApp>::namespaced(ctx.client.clone(), &namespace);
        let patch = Patch::Merge(serde_json::json!({ "status": status }));
        webapps
            .patch_status(&webapp.name_any(), &PatchParams::default(), &patch)
            .await?;
    }
    Ok(Action::await_change())
}

/// Retries a failed reconcile after a pause (the controller backs off on repeated failures).
pub fn error_policy(_: Arc<WebApp>, _: &Error, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_secs(10))
}

/// The labels of the Pods of `webapp`, also the selector of its Deployment and Service.
pub fn labels(webapp: &WebApp) -> BTreeMap<String, String> {
    [
        ("app.kubernetes.io/name", NAME.to_owned()),
        ("app.kubernetes.io/instance", webapp.name_any()),
        ("app.kubernetes.io/managed-by", MANAGED_BY.to_owned()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value))
    .collect()
}

/// The Deployment `<name>-deploy` that runs `webapp`'s image.
pub fn desired_deployment(webapp: &WebApp) -> Result<appsv1::Deployment, Error> {
    let spec = &webapp.spec;
    let pod_labels = labels(webapp);
    Ok(appsv1::Deployment {
        metadata: child_metadata(webapp, "deploy")?,
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.replicas),
            selector: metav1::LabelSelector {
                match_labels: Some(pod_labels.clone()),
                ..Default::default()
            },
            template: corev1::PodTemplateSpec {
                metadata: Some(metav1::ObjectMeta {
                    labels: Some(pod_labels),
                    ..Default::default()
                }),
                spec: Some(corev1::PodSpec {
                    security_context: Some(corev1::PodSecurityContext {
                        seccomp_profile: Some(corev1::SeccompProfile {
                            type_: "RuntimeDefault".to_owned(),
                            ..Default::default()
                        }),
                        ..Default::default()
                    }),
                    containers: vec![corev1::Container {
                        name: "webapp".to_owned(),
                        image: Some(spec.image.clone()),
                        ports: Some(vec![corev1::ContainerPort {
                            container_port: spec.port,
                            name: Some("http".to_owned()),
                            protocol: Some("TCP".to_owned()),
                            ..Default::default()
                        }]),
                        security_context: Some(corev1::SecurityContext {
                            allow_privilege_escalation: Some(false),
                            ..Default::default()
                        }),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            },
            ..Default::default()
        },
        ..Default::default()
    })
}

/// The Service `<name>-svc` that exposes `webapp`'s port.
pub fn desired_service(webapp: &WebApp) -> Result<corev1::Service, Error> {
    let port = webapp.spec.port;
    Ok(corev1::Service {
        metadata: child_metadata(webapp, "svc")?,
        spec: Some(corev1::ServiceSpec {
            selector: Some(labels(webapp)),
            ports: Some(vec![corev1::ServicePort {
                name: Some("http".to_owned()),
                port,
                target_port: Some(IntOrString::Int(port)),
                protocol: Some("TCP".to_owned()),
                ..Default::default()
            }]),
            type_: Some("ClusterIP".to_owned()),
            ..Default::default()
        }),
        ..Default::default()
    })
}

/// `<name>-<suffix>` in `webapp`'s namespace, owned (and garbage-collected) by it.
fn child_metadata(webapp: &WebApp, suffix: &str) -> Result<metav1::ObjectMeta, Error> {
    let owner = webapp
        .controller_owner_ref(&())
        .ok_or(Error::MissingMetadata("name or uid"))?;
    Ok(metav1::ObjectMeta {
        name: Some(format!("{}-{suffix}", webapp.name_any())),
        namespace: webapp.namespace(),
        labels: Some(labels(webapp)),
        owner_references: Some(vec![owner]),
        ..Default::default()
    })
}

/// The status `webapp` reports for its Deployment: Failed when the rollout cannot make
/// progress, Running once every replica is available, else Pending. `lastUpdateTime` becomes
/// `now` only when something else changed, so an unchanged state writes nothing.
pub fn observed_status(
    webapp: &WebApp,
    deployment: &appsv1::Deployment,
    now: metav1::Time,
) -> WebAppStatus {
    let current = webapp.status.clone().unwrap_or_default();
    let rollout = deployment.status.clone().unwrap_or_default();
    let available_replicas = rollout.available_replicas.unwrap_or(0);
    let conditions = rollout.conditions.unwrap_or_default();
    let has = |type_: &str, status: &str| {
        let is = |value: &Option<String>, expected| value.as_deref() == Some(expected);
        conditions
            .iter()
            .any(|c| is(&c.type_, type_) && is(&c.status, status))
    };
    let phase = if has("Progressing", "False") || has("ReplicaFailure", "True") {
        WebAppPhase::Failed
    } else if available_replicas >= webapp.spec.replicas {
        WebAppPhase::Running
    } else {
        WebAppPhase::Pending
    };
    let changed = current.available_replicas != available_replicas || current.phase != Some(phase);
    let last_update_time = if changed {
        Some(now)
    } else {
        current.last_update_time
    };
    WebAppStatus {
        available_replicas,
        phase: Some(phase),
        last_update_time,
        conditions: current.conditions,
    }
}
