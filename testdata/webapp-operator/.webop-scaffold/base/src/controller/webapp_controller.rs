//! The WebApp controller: runs the image of each WebApp as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports the Deployment's rollout in the
//! WebApp's status.
//!
//! This file says what the children are and what the status reports; the mechanics are
//! `webop::manager::reconcile`'s (docs: operator-library.md in webop):
//! - children are read from caches that watches keep, never with GETs, and applied (server-side
//!   apply as `FIELD_MANAGER`) only when they differ from what the WebApp asks for, exactly:
//!   a field the spec no longer sets is removed, a hand edit is undone, an unchanged child costs
//!   no request;
//! - an object of the same name that this WebApp does not control is never taken over;
//! - the status is written only when it changes, so writing it starts no endless loop;
//! - events record what the status cannot tell: a child updated to follow the spec (or to undo
//!   someone's edit), and a failed reconcile. A creation records none: the status says it.
//!
//! A WebApp being deleted is left to the garbage collector: its children carry a controller
//! reference that blocks its deletion until they are gone (`--cascade=foreground`).

use std::sync::Arc;

use k8s_openapi::api::apps::v1 as appsv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::runtime::controller::Action;
use kube::runtime::events::EventType;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use webop::manager::reconcile::{ApplyError, Children, Rollout, RolloutState};
use webop::manager::reconcile::{condition, one_line, set_condition};
use webop::manager::{CompactStore, Manager};
use webop::prelude::*;

use webapp_operator_api::v1 as appv1;
use appv1::WebAppPhase as Phase;

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "webapp";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "webapp-operator-controller";
/// The `app.kubernetes.io/managed-by` label of the children; the caches hold only these.
pub const MANAGED_BY: &str = "webapp-operator";

/// What every reconcile gets.
pub struct Context {
    /// Applies the children and records events, as `FIELD_MANAGER`.
    pub children: Children,
    /// The Deployments this operator manages, as the last watch event left them.
    pub deployments: CompactStore<appsv1::Deployment>,
    /// The Services this operator manages, likewise.
    pub services: CompactStore<corev1::Service>,
}

/// Why a reconcile failed; the WebApp is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Apply(#[from] ApplyError),
    #[error("cannot write the status: {}", one_line(.0))]
    Status(kube::Error),
}

/// Runs the controller until the manager shuts down (`manager.api()`: every namespace, or the
/// one of `--watch-namespace`).
pub async fn run(manager: Manager) {
    let kit = manager.controller::<appv1::WebApp>(NAME);
    let managed = watcher::Config::default().labels(&labels_of_children());
    let context = Context {
        children: manager.children(FIELD_MANAGER),
        deployments: kit.owns_compact(manager.api(), managed.clone()),
        services: kit.owns_compact(manager.api(), managed),
    };
    kit.run(manager.api(), reconcile, context).await;
}

/// Brings the Deployment and the Service of `webapp` to what its spec asks for, then reports
/// how that went in its status. Runs for every change of it or of its children.
///
/// `webapps/finalizers` update lets the children's owner references block the WebApp's
/// deletion (`blockOwnerDeletion`) on clusters that enforce it.
#[rbac(groups = ["app.example.com"], resources = ["webapps"], verbs = ["list", "watch"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/status"], verbs = ["patch"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/finalizers"], verbs = ["update"])]
#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["list", "watch", "create", "patch"])]
#[rbac(groups = [""], resources = ["services"], verbs = ["list", "watch", "create", "patch"])]
#[rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile(webapp: Arc<appv1::WebApp>, ctx: Arc<Context>) -> Result<Action, Error> {
    // Deletion is the garbage collector's: applying children now would recreate what it removes.
    if webapp.meta().deletion_timestamp.is_some() {
        return Ok(Action::await_change());
    }
    let deployment = desired_deployment(&webapp);
    let cached = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let applied = match ctx.children.apply(&*webapp, deployment, cached).await {
        Ok(deployment) => {
            let service = desired_service(&webapp);
            let cached = ctx.services.get(&ObjectRef::from_obj(&service));
            let service = ctx.children.apply(&*webapp, service, cached).await;
            service.map(|_| deployment.object)
        }
        Err(error) => Err(error),
    };
    // The status reports the Deployment as this reconcile left it, or why it could not.
    let status = match &applied {
        Ok(deployment) => status(&webapp, Ok(&Rollout::of(deployment))),
        Err(error) => {
            let note = error.to_string();
            let warning = EventType::Warning;
            ctx.children.publish(&*webapp, warning, "ReconcileFailed", note, None).await;
            status(&webapp, Err(error))
        }
    };
    let current = webapp.status.as_ref();
    ctx.children.write_status(&*webapp, current, &status).await.map_err(Error::Status)?;
    // No requeue: the watches on the WebApp and its children bring the next reconcile.
    applied.map(|_| Action::await_change()).map_err(Error::from)
}

/// The labels of the children and of the Pods, also the selector of the Deployment and the
/// Service.
pub fn labels(webapp: &appv1::WebApp) -> std::collections::BTreeMap<String, String> {
    [
        ("app.kubernetes.io/name", NAME.to_owned()),
        ("app.kubernetes.io/instance", webapp.name_any()),
        ("app.kubernetes.io/managed-by", MANAGED_BY.to_owned()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value))
    .collect()
}

/// The label selector of the children this operator manages, for the caches.
fn labels_of_children() -> String {
    format!("app.kubernetes.io/managed-by={MANAGED_BY}")
}

/// The Deployment `<name>-deploy` that runs `webapp`'s image with its replicas and port.
pub fn desired_deployment(webapp: &appv1::WebApp) -> appsv1::Deployment {
    let spec = &webapp.spec;
    // Without resources in the spec, requests the scheduler can place on any node.
    let requests = [("cpu", "10m"), ("memory", "64Mi")]
        .map(|(name, quantity)| (name.to_owned(), Quantity(quantity.to_owned())));
    let container = corev1::Container {
        name: NAME.to_owned(),
        image: Some(spec.image.clone()),
        ports: Some(vec![corev1::ContainerPort {
            container_port: spec.port,
            name: Some("http".to_owned()),
            protocol: Some("TCP".to_owned()),
            ..Default::default()
        }]),
        resources: Some(spec.resources.clone().unwrap_or_else(|| corev1::ResourceRequirements {
            requests: Some(requests.into()),
            ..Default::default()
        })),
        // Pod Security "restricted": the image must run as a non-root user.
        security_context: Some(corev1::SecurityContext {
            allow_privilege_escalation: Some(false),
            run_as_non_root: Some(true),
            capabilities: Some(corev1::Capabilities {
                drop: Some(vec!["ALL".to_owned()]),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let pod = corev1::PodSpec {
        containers: vec![container],
        security_context: Some(corev1::PodSecurityContext {
            run_as_non_root: Some(true),
            seccomp_profile: Some(corev1::SeccompProfile {
                type_: "RuntimeDefault".to_owned(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let selector = metav1::LabelSelector {
        match_labels: Some(labels(webapp)),
        ..Default::default()
    };
    let template = corev1::PodTemplateSpec {
        metadata: Some(child_metadata(webapp, None)),
        spec: Some(pod),
    };
    appsv1::Deployment {
        metadata: child_metadata(webapp, Some("deploy")),
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.replicas),
            selector,
            template,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The Service `<name>-svc` that exposes `webapp`'s port on the same port of its Pods.
pub fn desired_service(webapp: &appv1::WebApp) -> corev1::Service {
    let port = webapp.spec.port;
    corev1::Service {
        metadata: child_metadata(webapp, Some("svc")),
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
    }
}

/// `<name>-<suffix>` in `webapp`'s namespace with its labels (only the labels without a
/// suffix: the Pod template's). `Children::apply` adds the controller reference.
fn child_metadata(webapp: &appv1::WebApp, suffix: Option<&str>) -> metav1::ObjectMeta {
    metav1::ObjectMeta {
        name: suffix.map(|suffix| format!("{}-{suffix}", webapp.name_any())),
        namespace: suffix.and(webapp.namespace()),
        labels: Some(labels(webapp)),
        ..Default::default()
    }
}

/// The status `webapp` reports after a reconcile: the Deployment's rollout, or the
/// failure. Phase and conditions always agree, for the generation this reconcile saw; times
/// move only when something changed, so an unchanged state yields the current status.
pub fn status(
    webapp: &appv1::WebApp,
    outcome: Result<&Rollout, &ApplyError>,
) -> appv1::WebAppStatus {
    let mut status = webapp.status.clone().unwrap_or_default();
    let generation = webapp.metadata.generation;
    let (phase, progressing, reason, message) = match outcome {
        Err(error) => (Phase::Failed, false, error.reason(), error.to_string()),
        Ok(rollout) => match &rollout.state {
            RolloutState::Failed { reason, message } => {
                (Phase::Failed, false, reason.as_str(), message.clone())
            }
            RolloutState::InProgress => (Phase::Pending, true, "RollingOut", rollout.summary()),
            RolloutState::Complete => (Phase::Running, false, "RolloutComplete", rollout.summary()),
        },
    };
    let failed = phase == Phase::Failed;
    let mut changed = status.phase.replace(phase) != Some(phase);
    if let Ok(rollout) = outcome {
        changed |= std::mem::replace(&mut status.available_replicas, rollout.available)
            != rollout.available;
        let available = rollout.available >= rollout.desired;
        let why = if available { "MinimumReplicasAvailable" } else { "ReplicasUnavailable" };
        let condition = condition("Available", available, why, rollout.summary(), generation);
        changed |= set_condition(&mut status.conditions, condition);
    }
    let progress = condition("Progressing", progressing, reason, message.clone(), generation);
    changed |= set_condition(&mut status.conditions, progress);
    let (reason, message) = if failed { (reason, message) } else { ("AsExpected", String::new()) };
    let degraded = condition("Degraded", failed, reason, message, generation);
    changed |= set_condition(&mut status.conditions, degraded);
    if changed {
        status.last_update_time = Some(metav1::Time(k8s_openapi::jiff::Timestamp::now()));
    }
    status
}
