//! The {{ kind }} controller: runs the image of each {{ kind }} as a Deployment `<name>-deploy`,
//! exposes it through a Service `<name>-svc`, and reports the Deployment's rollout in the
//! {{ kind }}'s status. The mechanics are `webop::manager::reconcile`'s (webop's
//! docs/operator-library.md): children are read from caches and applied only when they differ
//! from what the {{ kind }} asks for, exactly; an object that the {{ kind }} does not control is
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

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "{{ controller_name }}";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "{{ project_name }}-controller";
/// The `app.kubernetes.io/managed-by` label of the children, which the caches select.
pub const MANAGED_BY: &str = "{{ project_name }}";
const CHILDREN: &str = "app.kubernetes.io/managed-by={{ project_name }}";
{%- if container_command %}
/// The container's command (`--container-command`).
pub const COMMAND: &[&str] = &[{% for arg in container_command %}{{ arg | rust_str }}, {% endfor %}];
{%- endif %}

type Phase = {{ api_alias }}::{{ kind }}Phase;

/// What every reconcile gets.
pub struct Context {
    /// Applies the children and records events, as `FIELD_MANAGER`.
    pub children: Children,
    /// The Deployments and Services this operator manages, as the last watch events left them.
    pub deployments: CompactStore<appsv1::Deployment>,
    pub services: CompactStore<corev1::Service>,
}

/// Why a reconcile failed; the {{ kind }} is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Apply(#[from] ApplyError),
    #[error("cannot write the status: {}", one_line(.0))]
    Status(#[from] kube::Error),
}

/// Runs the controller until the manager shuts down (in the namespace of `--watch-namespace`).
pub async fn run(manager: Manager) {
    let kit = manager.controller::<{{ api_alias }}::{{ kind }}>(NAME);
    let managed = watcher::Config::default().labels(CHILDREN);
    let context = Context {
        children: manager.children(FIELD_MANAGER),
        deployments: kit.owns_compact(manager.api(), managed.clone()),
        services: kit.owns_compact(manager.api(), managed),
    };
    kit.run(manager.api(), reconcile, context).await;
}

/// Brings the children of `{{ kind_var }}` to what its spec asks for, and reports how that went in
/// its status. (`{{ plural }}/finalizers`: the children's `blockOwnerDeletion` needs it.)
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
    let applied = apply_children(&{{ kind_var }}, &ctx).await;
    // The status reports the Deployment as this reconcile left it, or why it could not.
    let status = status(&{{ kind_var }}, applied.as_ref().map(Rollout::of));
    if let Err(error) = &applied {
        ctx.children.warn(&*{{ kind_var }}, "ReconcileFailed", error).await;
    }
    ctx.children.write_status(&*{{ kind_var }}, &status).await?;
    applied?;
    // No requeue: the watches on the {{ kind }} and its children bring the next reconcile.
    Ok(Action::await_change())
}

/// Applies the Deployment, then the Service; returns the Deployment as the API server left it.
async fn apply_children(
    {{ kind_var }}: &{{ api_alias }}::{{ kind }},
    ctx: &Context,
) -> Result<appsv1::Deployment, ApplyError> {
    let deployment = desired_deployment({{ kind_var }});
    let cached = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let deployment = ctx.children.apply({{ kind_var }}, deployment, cached).await?;
    let service = desired_service({{ kind_var }});
    let cached = ctx.services.get(&ObjectRef::from_obj(&service));
    ctx.children.apply({{ kind_var }}, service, cached).await?;
    Ok(deployment.object)
}

/// The labels of the children and of the Pods, also the selector of the Deployment and the
/// Service.
pub fn labels({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> BTreeMap<String, String> {
    let (name, instance) = (NAME.to_owned(), {{ kind_var }}.name_any());
    let labels = [
        ("name", name),
        ("instance", instance),
        ("managed-by", MANAGED_BY.into()),
    ];
    BTreeMap::from(labels.map(|(k, v)| (format!("app.kubernetes.io/{k}"), v)))
}

/// The Deployment `<name>-deploy` that runs `{{ kind_var }}`'s image with its replicas and port.
pub fn desired_deployment({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> appsv1::Deployment {
    let spec = &{{ kind_var }}.spec;
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
{%- if container_command %}
        command: Some(COMMAND.iter().map(|arg| (*arg).to_owned()).collect()),
{%- endif %}
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
    let selector = metav1::LabelSelector {
        match_labels: Some(labels({{ kind_var }})),
        ..Default::default()
    };
    let template = corev1::PodTemplateSpec {
        metadata: Some(child_metadata({{ kind_var }}, None)),
        spec: Some(pod),
    };
    appsv1::Deployment {
        metadata: child_metadata({{ kind_var }}, Some("deploy")),
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.replicas),
            selector,
            template,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The Service `<name>-svc` that exposes `{{ kind_var }}`'s port on the same port of its Pods.
pub fn desired_service({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> corev1::Service {
    let port = {{ kind_var }}.spec.port;
    corev1::Service {
        metadata: child_metadata({{ kind_var }}, Some("svc")),
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
    }
}

/// `<name>-<suffix>` in `{{ kind_var }}`'s namespace with its labels (only the labels without a
/// suffix: the Pod template's). `Children::apply` adds the controller reference.
fn child_metadata({{ kind_var }}: &{{ api_alias }}::{{ kind }}, suffix: Option<&str>) -> metav1::ObjectMeta {
    metav1::ObjectMeta {
        name: suffix.map(|suffix| format!("{}-{suffix}", {{ kind_var }}.name_any())),
        namespace: suffix.and({{ kind_var }}.namespace()),
        labels: Some(labels({{ kind_var }})),
        ..Default::default()
    }
}

/// The status `{{ kind_var }}` reports after a reconcile: the Deployment's rollout, or the failure.
/// Phase and conditions agree, for the generation this reconcile saw; times move only when
/// something changed, so an unchanged state yields the current status (and writes nothing).
pub fn status(
    {{ kind_var }}: &{{ api_alias }}::{{ kind }},
    outcome: Result<Rollout, &ApplyError>,
) -> {{ api_alias }}::{{ kind }}Status {
    let mut status = {{ kind_var }}.status.clone().unwrap_or_default();
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
    let (generation, conditions) = ({{ kind_var }}.metadata.generation, &mut status.conditions);
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
    if {{ kind_var }}.status.as_ref() != Some(&status) {
        status.last_update_time = Some(metav1::Time(k8s_openapi::jiff::Timestamp::now()));
    }
    status
}
