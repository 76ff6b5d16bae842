//! The WebApp controller: runs the image of each WebApp as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports the Deployment's state in the
//! WebApp's status.
//!
//! It is built to leave the API server alone once things are as asked:
//! - WebApps, Deployments and Services are read from caches that watches keep, never with GETs;
//! - a child is applied (server-side apply, one field manager) only when its cached copy lacks a
//!   field the WebApp asks for: an unchanged child costs no request;
//! - the status is written only when it changes, so writing it does not start an endless loop
//!   of watch events and reconciles;
//! - nothing polls: a change to a WebApp or to one of its children, deletion included, brings
//!   the next reconcile;
//! - events record what the status cannot tell: a child changed to follow the spec (or to undo
//!   someone else's edit), and a failed reconcile. A child's creation records none: the status
//!   already says `Pending`, and an event per new WebApp would cost a fifth more requests
//!   than its children and status need (and the event recorder keeps each one in memory for
//!   minutes).
//!
//! And to be safe to run:
//! - an object of the same name that this WebApp does not control is never taken over: the
//!   first apply does not force, so another owner's fields are a conflict, reported in the
//!   status (`Degraded`) and as an event;
//! - a WebApp being deleted is left to the garbage collector, never reconciled back;
//! - the status reports the Deployment as this reconcile left it, and a failed reconcile as
//!   `Degraded`, with the generation it saw;
//! - the RBAC rules below grant only the verbs it sends (server-side apply creates and patches;
//!   caches list and watch).

use std::sync::Arc;

use k8s_openapi::api::apps::v1 as appsv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::events::{Event, EventType, Recorder};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Api, Client, Resource, ResourceExt};
use serde_json::json;
use webop::manager::{CompactStore, Manager, already_applied};
use webop::prelude::*;

use webapp_operator_api::v1 as appv1;

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "webapp";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "webapp-operator-controller";
/// The `app.kubernetes.io/managed-by` label of the children; the caches hold only these.
pub const MANAGED_BY: &str = "webapp-operator";

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
    /// The Deployments this operator manages, as the last watch event left them (kept as JSON:
    /// a fifth of the memory of `Deployment` structs, which matters with thousands of them).
    pub deployments: CompactStore<appsv1::Deployment>,
    /// The Services this operator manages, likewise.
    pub services: CompactStore<corev1::Service>,
    pub recorder: Recorder,
}

/// Why a reconcile failed; the WebApp is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the WebApp has no {0}")]
    MissingMetadata(&'static str),
    #[error("cannot apply {kind} {name}: {source}")]
    Apply {
        kind: String,
        name: String,
        source: kube::Error,
    },
    #[error("{kind} {name} exists and is not controlled by this WebApp: {reason}")]
    NotControlled {
        kind: String,
        name: String,
        reason: String,
    },
    #[error("cannot write the status: {0}")]
    Status(kube::Error),
}

impl Error {
    /// The `Degraded` condition's reason for this failure.
    pub fn reason(&self) -> &'static str {
        match self {
            Error::MissingMetadata(_) => "InvalidObject",
            Error::Apply { .. } => "ApplyFailed",
            Error::NotControlled { .. } => "NotControlled",
            Error::Status(_) => "StatusWriteFailed",
        }
    }
}

/// Runs the controller until the manager shuts down.
pub async fn run(manager: Manager) {
    let kit = manager.controller::<appv1::WebApp>(NAME);
    // `manager.api()`: every namespace, or the one of `--watch-namespace`.
    let children =
        watcher::Config::default().labels(&format!("app.kubernetes.io/managed-by={MANAGED_BY}"));
    let (deployments, deployment_changes) =
        kit.owned_compact(manager.api::<appsv1::Deployment>(), children.clone());
    let (services, service_changes) = kit.owned_compact(manager.api::<corev1::Service>(), children);
    let context = Arc::new(Context {
        client: manager.client(),
        deployments,
        services,
        recorder: manager.recorder(FIELD_MANAGER),
    });
    let results = kit
        .build(manager.api::<appv1::WebApp>(), watcher::Config::default())
        .owns_stream(deployment_changes)
        .owns_stream(service_changes)
        .run(kit.reconcile(reconcile), kit.error_policy(), context);
    kit.drive(results).await;
}

/// Brings the Deployment and the Service of `webapp` to what its spec asks for, then reports
/// what the Deployment achieved in its status. Must be idempotent: it runs for every change.
///
/// `webapps/finalizers` update is what lets the children's owner references block the
/// WebApp's deletion (`blockOwnerDeletion`) on clusters that enforce it.
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
    let result = reconcile_children(&webapp, &ctx).await;
    if let Err(error) = &result {
        publish(
            &ctx,
            &webapp,
            EventType::Warning,
            "ReconcileFailed",
            error.to_string(),
        )
        .await;
        if !matches!(error, Error::Status(_)) {
            let now = metav1::Time(k8s_openapi::jiff::Timestamp::now());
            let status = failed_status(&webapp, error, now);
            if webapp.status.as_ref() != Some(&status) {
                write_status(&ctx, &webapp, &status).await?;
            }
        }
    }
    // No requeue: the watches on the WebApp and its children bring the next reconcile.
    result.map(|()| Action::await_change())
}

async fn reconcile_children(webapp: &appv1::WebApp, ctx: &Context) -> Result<(), Error> {
    let deployment = desired_deployment(webapp)?;
    let cached_deployment = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let service = desired_service(webapp)?;
    let cached_service = ctx.services.get(&ObjectRef::from_obj(&service));

    let mut updates = Vec::new();
    let deployment = apply(ctx, webapp, &deployment, cached_deployment).await?;
    updates.extend(deployment.update);
    updates.extend(apply(ctx, webapp, &service, cached_service).await?.update);
    if !updates.is_empty() {
        publish(
            ctx,
            webapp,
            EventType::Normal,
            "Updated",
            updates.join(", "),
        )
        .await;
    }

    // The status reports the Deployment as this reconcile left it: the API server's answer to
    // the apply, or the cached copy when nothing was applied.
    let now = metav1::Time(k8s_openapi::jiff::Timestamp::now());
    let status = observed_status(webapp, &deployment.object, now);
    if webapp.status.as_ref() != Some(&status) {
        write_status(ctx, webapp, &status).await?;
    }
    Ok(())
}

/// A child as a reconcile left it, and the change made to it if it existed already
/// (`Updated Deployment demo-deploy`).
struct Applied<K> {
    object: K,
    update: Option<String>,
}

/// Applies `desired` unless its cached copy already carries every field of it. A child the
/// cache has not seen yet is applied without force, so that an object of the same name with
/// another owner's fields is a conflict rather than taken over.
async fn apply<K>(
    ctx: &Context,
    owner: &appv1::WebApp,
    desired: &K,
    cached: Option<K>,
) -> Result<Applied<K>, Error>
where
    K: Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
        + Clone
        + std::fmt::Debug
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    let (kind, name) = (K::kind(&()).to_string(), desired.name_any());
    if let Some(cached) = &cached {
        let controlled = cached
            .owner_references()
            .iter()
            .any(|r| r.controller == Some(true) && Some(&r.uid) == owner.meta().uid.as_ref());
        if !controlled {
            return Err(Error::NotControlled {
                kind,
                name,
                reason: "its controller is another object".to_owned(),
            });
        }
        if already_applied(desired, Some(cached)) {
            return Ok(Applied {
                object: cached.clone(),
                update: None,
            });
        }
    }
    let namespace = desired
        .namespace()
        .ok_or(Error::MissingMetadata("namespace"))?;
    let mut params = PatchParams::apply(FIELD_MANAGER);
    params.force = cached.is_some();
    let object = Api::<K>::namespaced(ctx.client.clone(), &namespace)
        .patch(&name, &params, &Patch::Apply(desired))
        .await
        .map_err(|source| match &source {
            // 409: fields another manager owns. 422 on the owner references: another controller.
            kube::Error::Api(status) if cached.is_none() && matches!(status.code, 409 | 422) => {
                Error::NotControlled {
                    kind: kind.clone(),
                    name: name.clone(),
                    reason: status.message.clone(),
                }
            }
            _ => Error::Apply {
                kind: kind.clone(),
                name: name.clone(),
                source,
            },
        })?;
    Ok(Applied {
        object,
        update: cached.is_some().then(|| format!("Updated {kind} {name}")),
    })
}

/// Writes `status` through the status subresource (server-side apply: only status fields).
async fn write_status(
    ctx: &Context,
    webapp: &appv1::WebApp,
    status: &appv1::WebAppStatus,
) -> Result<(), Error> {
    let namespace = webapp
        .namespace()
        .ok_or(Error::MissingMetadata("namespace"))?;
    let patch = json!({
        "apiVersion": appv1::WebApp::api_version(&()),
        "kind": appv1::WebApp::kind(&()),
        "status": status,
    });
    Api::<appv1::WebApp>::namespaced(ctx.client.clone(), &namespace)
        .patch_status(
            &webapp.name_any(),
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await
        .map_err(Error::Status)?;
    Ok(())
}

/// Records an event on `webapp`; a failure to record is logged, never fatal.
async fn publish(
    ctx: &Context,
    webapp: &appv1::WebApp,
    type_: EventType,
    reason: &str,
    note: String,
) {
    let event = Event {
        type_,
        reason: reason.to_owned(),
        note: Some(note),
        action: "Reconcile".to_owned(),
        secondary: None,
    };
    if let Err(error) = ctx.recorder.publish(&event, &webapp.object_ref(&())).await {
        tracing::warn!(%error, "cannot record an event");
    }
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

/// The Deployment `<name>-deploy` that runs `webapp`'s image with its replicas and port.
pub fn desired_deployment(webapp: &appv1::WebApp) -> Result<appsv1::Deployment, Error> {
    let spec = &webapp.spec;
    let container = corev1::Container {
        name: NAME.to_owned(),
        image: Some(spec.image.clone()),
        ports: Some(vec![corev1::ContainerPort {
            container_port: spec.port,
            name: Some("http".to_owned()),
            protocol: Some("TCP".to_owned()),
            ..Default::default()
        }]),
        resources: Some(spec.resources.clone().unwrap_or_else(default_resources)),
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
    Ok(appsv1::Deployment {
        metadata: child_metadata(webapp, "deploy")?,
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.replicas),
            selector: metav1::LabelSelector {
                match_labels: Some(labels(webapp)),
                ..Default::default()
            },
            template: corev1::PodTemplateSpec {
                metadata: Some(metav1::ObjectMeta {
                    labels: Some(labels(webapp)),
                    ..Default::default()
                }),
                spec: Some(pod),
            },
            ..Default::default()
        },
        ..Default::default()
    })
}

/// What the container requests when the spec names no resources: enough for the scheduler to
/// place it, little enough for any node.
fn default_resources() -> corev1::ResourceRequirements {
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    corev1::ResourceRequirements {
        requests: Some(
            [
                ("cpu".to_owned(), Quantity("10m".to_owned())),
                ("memory".to_owned(), Quantity("64Mi".to_owned())),
            ]
            .into(),
        ),
        ..Default::default()
    }
}

/// The Service `<name>-svc` that exposes `webapp`'s port on the same port of its Pods.
pub fn desired_service(webapp: &appv1::WebApp) -> Result<corev1::Service, Error> {
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

/// `<name>-<suffix>` in `webapp`'s namespace, controlled by it: deleting the WebApp deletes
/// it (garbage collection), and a change to it triggers the WebApp's reconcile.
fn child_metadata(webapp: &appv1::WebApp, suffix: &str) -> Result<metav1::ObjectMeta, Error> {
    let owner = webapp
        .controller_owner_ref(&())
        .ok_or(Error::MissingMetadata("name or uid"))?;
    Ok(metav1::ObjectMeta {
        name: Some(format!("{}-{suffix}", webapp.name_any())),
        namespace: Some(
            webapp
                .namespace()
                .ok_or(Error::MissingMetadata("namespace"))?,
        ),
        labels: Some(labels(webapp)),
        owner_references: Some(vec![owner]),
        ..Default::default()
    })
}

/// The status `webapp` reports for `deployment`. Condition transition times, and
/// `lastUpdateTime`, become `now` only when something else changed: an unchanged state yields
/// the current status, and so writes nothing.
pub fn observed_status(
    webapp: &appv1::WebApp,
    deployment: &appsv1::Deployment,
    now: metav1::Time,
) -> appv1::WebAppStatus {
    let current = webapp.status.clone().unwrap_or_default();
    let rollout = Rollout::of(deployment, webapp.spec.replicas);
    let phase = rollout.phase();
    let generation = webapp.metadata.generation;
    let condition = |type_: &str, status: bool, reason: &str, message: String| {
        let status = if status { "True" } else { "False" };
        let since = current
            .conditions
            .iter()
            .find(|c| c.type_ == type_ && c.status == status)
            .map_or_else(|| now.clone(), |c| c.last_transition_time.clone());
        metav1::Condition {
            type_: type_.to_owned(),
            status: status.to_owned(),
            reason: reason.to_owned(),
            message,
            observed_generation: generation,
            last_transition_time: since,
        }
    };
    let available = format!(
        "{}/{} replicas available",
        rollout.available, rollout.desired
    );
    let failure = rollout.failure.clone().unwrap_or_default();
    let conditions = vec![
        condition(
            "Available",
            rollout.available >= rollout.desired,
            if rollout.available >= rollout.desired {
                "MinimumReplicasAvailable"
            } else {
                "ReplicasUnavailable"
            },
            available.clone(),
        ),
        condition(
            "Progressing",
            phase == appv1::WebAppPhase::Pending,
            match phase {
                appv1::WebAppPhase::Pending => "RollingOut",
                appv1::WebAppPhase::Running => "RolloutComplete",
                appv1::WebAppPhase::Failed => "RolloutFailed",
            },
            available,
        ),
        condition(
            "Degraded",
            phase == appv1::WebAppPhase::Failed,
            if phase == appv1::WebAppPhase::Failed {
                failure.0.as_str()
            } else {
                "AsExpected"
            },
            failure.1,
        ),
    ];
    let mut status = appv1::WebAppStatus {
        available_replicas: rollout.available,
        phase: Some(phase),
        last_update_time: current.last_update_time.clone(),
        conditions,
    };
    if status != current {
        status.last_update_time = Some(now);
    }
    status
}

/// The status `webapp` reports after a failed reconcile: `Degraded` with the failure, for
/// the generation it saw; the rest as it was.
pub fn failed_status(
    webapp: &appv1::WebApp,
    error: &Error,
    now: metav1::Time,
) -> appv1::WebAppStatus {
    let mut status = webapp.status.clone().unwrap_or_default();
    let degraded = metav1::Condition {
        type_: "Degraded".to_owned(),
        status: "True".to_owned(),
        reason: error.reason().to_owned(),
        message: error.to_string(),
        observed_generation: webapp.metadata.generation,
        last_transition_time: now.clone(),
    };
    match status.conditions.iter_mut().find(|c| c.type_ == "Degraded") {
        Some(current)
            if current.status == degraded.status
                && current.reason == degraded.reason
                && current.message == degraded.message
                && current.observed_generation == degraded.observed_generation => {}
        Some(current) => {
            let since = if current.status == degraded.status {
                current.last_transition_time.clone()
            } else {
                now.clone()
            };
            *current = metav1::Condition {
                last_transition_time: since,
                ..degraded
            };
            status.last_update_time = Some(now);
        }
        None => {
            status.conditions.push(degraded);
            status.last_update_time = Some(now);
        }
    }
    status
}

/// What a Deployment's status says of its rollout towards `desired` replicas.
struct Rollout {
    desired: i32,
    available: i32,
    /// The Deployment controller has seen the current spec, every replica runs the current Pod
    /// template and is available, and no replica of an older template is left (during a
    /// rollout the old ones still count as available).
    complete: bool,
    /// Why the rollout cannot make progress (reason, message), if it cannot.
    failure: Option<(String, String)>,
}

impl Rollout {
    fn of(deployment: &appsv1::Deployment, desired: i32) -> Self {
        let status = deployment.status.clone().unwrap_or_default();
        let observed = match (deployment.metadata.generation, status.observed_generation) {
            (Some(generation), Some(observed)) => observed >= generation,
            (Some(_), None) => false,
            (None, _) => true,
        };
        let available = status.available_replicas.unwrap_or(0);
        let updated = status.updated_replicas.unwrap_or(0);
        let total = status.replicas.unwrap_or(0);
        let failure = status
            .conditions
            .unwrap_or_default()
            .into_iter()
            .find_map(|c| {
                let (type_, status) = (c.type_.unwrap_or_default(), c.status.unwrap_or_default());
                let stuck = type_ == "Progressing" && status == "False";
                let failing = type_ == "ReplicaFailure" && status == "True";
                let reason = c.reason.unwrap_or(type_);
                (stuck || failing).then(|| (reason, c.message.unwrap_or_default()))
            });
        Rollout {
            desired,
            available,
            complete: observed && updated >= desired && total <= updated && available >= desired,
            failure,
        }
    }

    fn phase(&self) -> appv1::WebAppPhase {
        if self.failure.is_some() {
            appv1::WebAppPhase::Failed
        } else if self.complete {
            appv1::WebAppPhase::Running
        } else {
            appv1::WebAppPhase::Pending
        }
    }
}
