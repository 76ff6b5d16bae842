//! The {{ kind }} controller: runs the image of each {{ kind }} as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports the Deployment's state in the
//! {{ kind }}'s status.
//!
//! It is built to leave the API server alone once things are as asked:
//! - {{ kind }}s, Deployments and Services are read from caches that watches keep, never with GETs;
//! - a child is applied (server-side apply, one field manager) only when its cached copy lacks a
//!   field the {{ kind }} asks for: an unchanged child costs no request;
//! - the status is written only when it changes, so writing it does not start an endless loop
//!   of watch events and reconciles;
//! - nothing polls: a change to a {{ kind }} or to one of its children, deletion included, brings
//!   the next reconcile;
//! - events record what the status cannot tell: a child changed to follow the spec (or to undo
//!   someone else's edit), and a failed reconcile. A child's creation records none: the status
//!   already says `Pending`, and an event per new {{ kind }} would cost a fifth more requests
//!   than its children and status need (and the event recorder keeps each one in memory for
//!   minutes).
//!
//! And to be safe to run:
//! - an object of the same name that this {{ kind }} does not control is never taken over: the
//!   first apply does not force, so another owner's fields are a conflict, reported in the
//!   status (`Degraded`) and as an event;
//! - a {{ kind }} being deleted is left to the garbage collector, never reconciled back;
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

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "{{ controller_name }}";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "{{ project_name }}-controller";
/// The `app.kubernetes.io/managed-by` label of the children; the caches hold only these.
pub const MANAGED_BY: &str = "{{ project_name }}";

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

/// Why a reconcile failed; the {{ kind }} is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the {{ kind }} has no {0}")]
    MissingMetadata(&'static str),
    #[error("cannot apply {kind} {name}: {source}")]
    Apply {
        kind: String,
        name: String,
        source: kube::Error,
    },
    #[error("{kind} {name} exists and is not controlled by this {{ kind }}: {reason}")]
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
    let kit = manager.controller::<{{ api_alias }}::{{ kind }}>(NAME);
    // `manager.api()`: every namespace, or the one of `--watch-namespace`.
    let children =
        watcher::Config::default().labels(&format!("app.kubernetes.io/managed-by={MANAGED_BY}"));
    let (deployments, deployment_changes) =
        kit.owned_compact(manager.api::<appsv1::Deployment>(), children.clone());
    let (services, service_changes) =
        kit.owned_compact(manager.api::<corev1::Service>(), children);
    let context = Arc::new(Context {
        client: manager.client(),
        deployments,
        services,
        recorder: manager.recorder(FIELD_MANAGER),
    });
    let results = kit
        .build(manager.api::<{{ api_alias }}::{{ kind }}>(), watcher::Config::default())
        .owns_stream(deployment_changes)
        .owns_stream(service_changes)
        .run(kit.reconcile(reconcile), kit.error_policy(), context);
    kit.drive(results).await;
}

/// Brings the Deployment and the Service of `{{ kind_var }}` to what its spec asks for, then reports
/// what the Deployment achieved in its status. Must be idempotent: it runs for every change.
///
/// `{{ plural }}/finalizers` update is what lets the children's owner references block the
/// {{ kind }}'s deletion (`blockOwnerDeletion`) on clusters that enforce it.
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}"], verbs = ["list", "watch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/status"], verbs = ["patch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/finalizers"], verbs = ["update"])]
#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["list", "watch", "create", "patch"])]
#[rbac(groups = [""], resources = ["services"], verbs = ["list", "watch", "create", "patch"])]
#[rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile({{ kind_var }}: Arc<{{ api_alias }}::{{ kind }}>, ctx: Arc<Context>) -> Result<Action, Error> {
    // Deletion is the garbage collector's: applying children now would recreate what it removes.
    if {{ kind_var }}.meta().deletion_timestamp.is_some() {
        return Ok(Action::await_change());
    }
    let result = reconcile_children(&{{ kind_var }}, &ctx).await;
    if let Err(error) = &result {
        publish(
            &ctx,
            &{{ kind_var }},
            EventType::Warning,
            "ReconcileFailed",
            error.to_string(),
        )
        .await;
        if !matches!(error, Error::Status(_)) {
            let now = metav1::Time(k8s_openapi::jiff::Timestamp::now());
            let status = failed_status(&{{ kind_var }}, error, now);
            if {{ kind_var }}.status.as_ref() != Some(&status) {
                write_status(&ctx, &{{ kind_var }}, &status).await?;
            }
        }
    }
    // No requeue: the watches on the {{ kind }} and its children bring the next reconcile.
    result.map(|()| Action::await_change())
}

async fn reconcile_children({{ kind_var }}: &{{ api_alias }}::{{ kind }}, ctx: &Context) -> Result<(), Error> {
    let deployment = desired_deployment({{ kind_var }})?;
    let cached_deployment = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let service = desired_service({{ kind_var }})?;
    let cached_service = ctx.services.get(&ObjectRef::from_obj(&service));

    let mut updates = Vec::new();
    let deployment = apply(ctx, {{ kind_var }}, &deployment, cached_deployment).await?;
    updates.extend(deployment.update);
    updates.extend(apply(ctx, {{ kind_var }}, &service, cached_service).await?.update);
    if !updates.is_empty() {
        publish(ctx, {{ kind_var }}, EventType::Normal, "Updated", updates.join(", ")).await;
    }

    // The status reports the Deployment as this reconcile left it: the API server's answer to
    // the apply, or the cached copy when nothing was applied.
    let now = metav1::Time(k8s_openapi::jiff::Timestamp::now());
    let status = observed_status({{ kind_var }}, &deployment.object, now);
    if {{ kind_var }}.status.as_ref() != Some(&status) {
        write_status(ctx, {{ kind_var }}, &status).await?;
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
    owner: &{{ api_alias }}::{{ kind }},
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
async fn write_status(ctx: &Context, {{ kind_var }}: &{{ api_alias }}::{{ kind }}, status: &{{ api_alias }}::{{ kind }}Status) -> Result<(), Error> {
    let namespace = {{ kind_var }}
        .namespace()
        .ok_or(Error::MissingMetadata("namespace"))?;
    let patch = json!({
        "apiVersion": {{ api_alias }}::{{ kind }}::api_version(&()),
        "kind": {{ api_alias }}::{{ kind }}::kind(&()),
        "status": status,
    });
    Api::<{{ api_alias }}::{{ kind }}>::namespaced(ctx.client.clone(), &namespace)
        .patch_status(
            &{{ kind_var }}.name_any(),
            &PatchParams::apply(FIELD_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await
        .map_err(Error::Status)?;
    Ok(())
}

/// Records an event on `{{ kind_var }}`; a failure to record is logged, never fatal.
async fn publish(ctx: &Context, {{ kind_var }}: &{{ api_alias }}::{{ kind }}, type_: EventType, reason: &str, note: String) {
    let event = Event {
        type_,
        reason: reason.to_owned(),
        note: Some(note),
        action: "Reconcile".to_owned(),
        secondary: None,
    };
    if let Err(error) = ctx.recorder.publish(&event, &{{ kind_var }}.object_ref(&())).await {
        tracing::warn!(%error, "cannot record an event");
    }
}

/// The labels of the children and of the Pods, also the selector of the Deployment and the
/// Service.
pub fn labels({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> std::collections::BTreeMap<String, String> {
    [
        ("app.kubernetes.io/name", NAME.to_owned()),
        ("app.kubernetes.io/instance", {{ kind_var }}.name_any()),
        ("app.kubernetes.io/managed-by", MANAGED_BY.to_owned()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value))
    .collect()
}

/// The Deployment `<name>-deploy` that runs `{{ kind_var }}`'s image with its replicas and port.
pub fn desired_deployment({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> Result<appsv1::Deployment, Error> {
    let spec = &{{ kind_var }}.spec;
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
{%- if run_as_user %}
            run_as_user: Some({{ run_as_user }}),
{%- endif %}
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
        metadata: child_metadata({{ kind_var }}, "deploy")?,
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.replicas),
            selector: metav1::LabelSelector {
                match_labels: Some(labels({{ kind_var }})),
                ..Default::default()
            },
            template: corev1::PodTemplateSpec {
                metadata: Some(metav1::ObjectMeta {
                    labels: Some(labels({{ kind_var }})),
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

/// The Service `<name>-svc` that exposes `{{ kind_var }}`'s port on the same port of its Pods.
pub fn desired_service({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> Result<corev1::Service, Error> {
    let port = {{ kind_var }}.spec.port;
    Ok(corev1::Service {
        metadata: child_metadata({{ kind_var }}, "svc")?,
        spec: Some(corev1::ServiceSpec {
            selector: Some(labels({{ kind_var }})),
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

/// `<name>-<suffix>` in `{{ kind_var }}`'s namespace, controlled by it: deleting the {{ kind }} deletes
/// it (garbage collection), and a change to it triggers the {{ kind }}'s reconcile.
fn child_metadata({{ kind_var }}: &{{ api_alias }}::{{ kind }}, suffix: &str) -> Result<metav1::ObjectMeta, Error> {
    let owner = {{ kind_var }}
        .controller_owner_ref(&())
        .ok_or(Error::MissingMetadata("name or uid"))?;
    Ok(metav1::ObjectMeta {
        name: Some(format!("{}-{suffix}", {{ kind_var }}.name_any())),
        namespace: Some(
            {{ kind_var }}
                .namespace()
                .ok_or(Error::MissingMetadata("namespace"))?,
        ),
        labels: Some(labels({{ kind_var }})),
        owner_references: Some(vec![owner]),
        ..Default::default()
    })
}

/// The status `{{ kind_var }}` reports for `deployment`. Condition transition times, and
/// `lastUpdateTime`, become `now` only when something else changed: an unchanged state yields
/// the current status, and so writes nothing.
pub fn observed_status(
    {{ kind_var }}: &{{ api_alias }}::{{ kind }},
    deployment: &appsv1::Deployment,
    now: metav1::Time,
) -> {{ api_alias }}::{{ kind }}Status {
    let current = {{ kind_var }}.status.clone().unwrap_or_default();
    let rollout = Rollout::of(deployment, {{ kind_var }}.spec.replicas);
    let phase = rollout.phase();
    let generation = {{ kind_var }}.metadata.generation;
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
            phase == {{ api_alias }}::{{ kind }}Phase::Pending,
            match phase {
                {{ api_alias }}::{{ kind }}Phase::Pending => "RollingOut",
                {{ api_alias }}::{{ kind }}Phase::Running => "RolloutComplete",
                {{ api_alias }}::{{ kind }}Phase::Failed => "RolloutFailed",
            },
            available,
        ),
        condition(
            "Degraded",
            phase == {{ api_alias }}::{{ kind }}Phase::Failed,
            if phase == {{ api_alias }}::{{ kind }}Phase::Failed {
                failure.0.as_str()
            } else {
                "AsExpected"
            },
            failure.1,
        ),
    ];
    let mut status = {{ api_alias }}::{{ kind }}Status {
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

/// The status `{{ kind_var }}` reports after a failed reconcile: `Degraded` with the failure, for
/// the generation it saw; the rest as it was.
pub fn failed_status(
    {{ kind_var }}: &{{ api_alias }}::{{ kind }},
    error: &Error,
    now: metav1::Time,
) -> {{ api_alias }}::{{ kind }}Status {
    let mut status = {{ kind_var }}.status.clone().unwrap_or_default();
    let degraded = metav1::Condition {
        type_: "Degraded".to_owned(),
        status: "True".to_owned(),
        reason: error.reason().to_owned(),
        message: error.to_string(),
        observed_generation: {{ kind_var }}.metadata.generation,
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

    fn phase(&self) -> {{ api_alias }}::{{ kind }}Phase {
        if self.failure.is_some() {
            {{ api_alias }}::{{ kind }}Phase::Failed
        } else if self.complete {
            {{ api_alias }}::{{ kind }}Phase::Running
        } else {
            {{ api_alias }}::{{ kind }}Phase::Pending
        }
    }
}
