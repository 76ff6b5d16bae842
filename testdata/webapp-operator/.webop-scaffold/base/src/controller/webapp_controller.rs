//! The WebApp controller: runs the image of each WebApp as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports the Deployment's rollout in the
//! WebApp's status. The mechanics are `webop::manager::reconcile`'s (webop's
//! docs/operator-library.md): children are read from caches and applied only when they differ
//! from what the WebApp asks for, exactly; an object that the WebApp does not control is
//! never taken over; the status is written only when it changes.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1 as appsv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::runtime::controller::Action;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use webop::manager::reconcile::{ApplyError, Children, Rollout, RolloutState};
use webop::manager::reconcile::{condition, one_line, set_condition};
use webop::manager::{CompactStore, Manager};
use webop::prelude::*;

use webapp_operator_api::v1 as appv1;

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "webapp";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "webapp-operator-controller";
/// The `app.kubernetes.io/managed-by` label of the children, which the caches select.
pub const MANAGED_BY: &str = "webapp-operator";
const CHILDREN: &str = "app.kubernetes.io/managed-by=webapp-operator";

type Phase = appv1::WebAppPhase;

/// What every reconcile gets.
pub struct Context {
    /// Applies the children and records events, as `FIELD_MANAGER`.
    pub children: Children,
    /// The Deployments and Services this operator manages, as the last watch events left them.
    pub deployments: CompactStore<appsv1::Deployment>,
    pub services: CompactStore<corev1::Service>,
}

/// Why a reconcile failed; the WebApp is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Apply(#[from] ApplyError),
    #[error("cannot write the status: {}", one_line(.0))]
    Status(#[from] kube::Error),
}

/// Runs the controller until the manager shuts down (in the namespace of `--watch-namespace`).
pub async fn run(manager: Manager) {
    let kit = manager.controller::<appv1::WebApp>(NAME);
    let managed = watcher::Config::default().labels(CHILDREN);
    let context = Context {
        children: manager.children(FIELD_MANAGER),
        deployments: kit.owns_compact(manager.api(), managed.clone()),
        services: kit.owns_compact(manager.api(), managed),
    };
    kit.run(manager.api(), reconcile, context).await;
}

/// Brings the children of `webapp` to what its spec asks for, and reports how that went in
/// its status. (`webapps/finalizers`: the children's `blockOwnerDeletion` needs it.)
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
    let applied = apply_children(&webapp, &ctx).await;
    // The status reports the Deployment as this reconcile left it, or why it could not.
    let status = status(&webapp, applied.as_ref().map(Rollout::of));
    if let Err(error) = &applied {
        ctx.children.warn(&*webapp, "ReconcileFailed", error).await;
    }
    ctx.children.write_status(&*webapp, &status).await?;
    applied?;
    // No requeue: the watches on the WebApp and its children bring the next reconcile.
    Ok(Action::await_change())
}

/// Applies the Deployment, then the Service; returns the Deployment as the API server left it.
async fn apply_children(
    webapp: &appv1::WebApp,
    ctx: &Context,
) -> Result<appsv1::Deployment, ApplyError> {
    let deployment = desired_deployment(webapp);
    let cached = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let deployment = ctx.children.apply(webapp, deployment, cached).await?;
    let service = desired_service(webapp);
    let cached = ctx.services.get(&ObjectRef::from_obj(&service));
    ctx.children.apply(webapp, service, cached).await?;
    Ok(deployment.object)
}

/// The labels of the children and of the Pods, also the selector of the Deployment and the
/// Service.
pub fn labels(webapp: &appv1::WebApp) -> BTreeMap<String, String> {
    let (name, instance) = (NAME.to_owned(), webapp.name_any());
    let labels = [
        ("name", name),
        ("instance", instance),
        ("managed-by", MANAGED_BY.into()),
    ];
    BTreeMap::from(labels.map(|(k, v)| (format!("app.kubernetes.io/{k}"), v)))
}

/// The Deployment `<name>-deploy` that runs `webapp`'s image with its replicas and port.
pub fn desired_deployment(webapp: &appv1::WebApp) -> appsv1::Deployment {
    let spec = &webapp.spec;
    // Without resources in the spec, requests the scheduler can place on any node.
    let requests = [("cpu", "10m"), ("memory", "64Mi")];
    let requests = requests.map(|(name, value)| (name.to_owned(), Quantity(value.to_owned())));
    let resources = corev1::ResourceRequirements {
        requests: Some(requests.into()),
        ..Default::default()
    };
    let container = corev1::Container {
        name: NAME.to_owned(),
        image: Some(spec.image.clone()),
        ports: Some(vec![corev1::ContainerPort {
            container_port: spec.port,
            name: Some("http".to_owned()),
            protocol: Some("TCP".to_owned()),
            ..Default::default()
        }]),
        resources: Some(spec.resources.clone().unwrap_or(resources)),
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

/// The status `webapp` reports after a reconcile: the Deployment's rollout, or the failure.
/// Phase and conditions agree, for the generation this reconcile saw; times move only when
/// something changed, so an unchanged state yields the current status (and writes nothing).
pub fn status(
    webapp: &appv1::WebApp,
    outcome: Result<Rollout, &ApplyError>,
) -> appv1::WebAppStatus {
    let mut status = webapp.status.clone().unwrap_or_default();
    let (phase, progressing, reason, message) = match &outcome {
        Err(error) => (Phase::Failed, false, error.reason(), error.to_string()),
        Ok(rollout) => match &rollout.state {
            RolloutState::Failed { reason, message } => {
                (Phase::Failed, false, reason.as_str(), message.clone())
            }
            RolloutState::InProgress => (Phase::Pending, true, "RollingOut", rollout.summary()),
            RolloutState::Complete => (Phase::Running, false, "RolloutComplete", rollout.summary()),
        },
    };
    status.phase = Some(phase);
    let (generation, conditions) = (webapp.metadata.generation, &mut status.conditions);
    let mut set = |t, v, r, m| set_condition(conditions, condition(t, v, r, m, generation));
    if let Ok(rollout) = &outcome {
        status.available_replicas = rollout.available;
        let ok = rollout.available >= rollout.desired;
        let why = ["ReplicasUnavailable", "MinimumReplicasAvailable"][usize::from(ok)];
        set("Available", ok, why, rollout.summary());
    }
    set("Progressing", progressing, reason, message.clone());
    match phase {
        Phase::Failed => set("Degraded", true, reason, message),
        _ => set("Degraded", false, "AsExpected", String::new()),
    };
    if webapp.status.as_ref() != Some(&status) {
        status.last_update_time = Some(metav1::Time(k8s_openapi::jiff::Timestamp::now()));
    }
    status
}
