//! The {{ kind }} controller, as kubebuilder's deploy-image plugin scaffolds it: runs the image
//! of the plugin's options as a Deployment named after each {{ kind }}, with the {{ kind }}'s
//! `size` as its replicas{% if container_port %} and its `containerPort`{% endif %}, and reports the Deployment's rollout
//! in the {{ kind }}'s conditions. The mechanics are `webop::manager::reconcile`'s (webop's
//! docs/operator-library.md): the Deployment is read from a cache and applied only when it
//! differs from what the {{ kind }} asks for, exactly; one that the {{ kind }} does not control
//! is never taken over; the status is written only when it changes.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1 as appsv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
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
/// The `app.kubernetes.io/managed-by` label of the Deployments, which the cache selects.
pub const MANAGED_BY: &str = "{{ project_name }}";
const CHILDREN: &str = "app.kubernetes.io/managed-by={{ project_name }}";

/// The image each {{ kind }} runs (`--image`); `{{ image_env }}` in the manager's environment
/// overrides it, as in kubebuilder's config/manager/manager.yaml.
pub const IMAGE: &str = {{ image | rust_str }};
/// The environment variable that overrides [`IMAGE`].
pub const IMAGE_ENV: &str = "{{ image_env }}";
{%- if container_command %}
/// The container's command (`--container-command`).
pub const COMMAND: &[&str] = &[{% for arg in container_command %}{{ arg | rust_str }}, {% endfor %}];
{%- endif %}

/// What every reconcile gets.
pub struct Context {
    /// The image the Deployments run: [`IMAGE`], or `{{ image_env }}` when set.
    pub image: String,
    /// Applies the Deployments and records events, as `FIELD_MANAGER`.
    pub children: Children,
    /// The Deployments this operator manages, as the last watch events left them.
    pub deployments: CompactStore<appsv1::Deployment>,
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
        image: std::env::var(IMAGE_ENV).unwrap_or_else(|_| IMAGE.to_owned()),
        children: manager.children(FIELD_MANAGER),
        deployments: kit.owns_compact(manager.api(), managed),
    };
    kit.run(manager.api(), reconcile, context).await;
}

/// Brings the Deployment of `{{ kind_var }}` to what its spec asks for, and reports how that went in
/// its conditions. (`{{ plural }}/finalizers`: the Deployment's `blockOwnerDeletion` needs it.)
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}"], verbs = ["list", "watch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/status"], verbs = ["patch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/finalizers"], verbs = ["update"])]
#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["list", "watch", "create", "patch"])]
#[rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile({{ kind_var }}: Arc<{{ api_alias }}::{{ kind }}>, ctx: Arc<Context>) -> Result<Action, Error> {
    // Deletion is the garbage collector's: applying the Deployment now would recreate it.
    if {{ kind_var }}.meta().deletion_timestamp.is_some() {
        return Ok(Action::await_change());
    }
    let deployment = desired_deployment(&{{ kind_var }}, &ctx.image);
    let cached = ctx.deployments.get(&ObjectRef::from_obj(&deployment));
    let applied = ctx.children.apply(&*{{ kind_var }}, deployment, cached).await;
    // The status reports the Deployment as this reconcile left it, or why it could not.
    let status = status(&{{ kind_var }}, applied.as_ref().map(|a| Rollout::of(&a.object)));
    if let Err(error) = &applied {
        ctx.children.warn(&*{{ kind_var }}, "ReconcileFailed", error).await;
    }
    ctx.children.write_status(&*{{ kind_var }}, &status).await?;
    applied?;
    // No requeue: the watches on the {{ kind }} and its Deployment bring the next reconcile.
    Ok(Action::await_change())
}

/// The labels of the Deployment and of its Pods, also the Deployment's selector.
pub fn labels({{ kind_var }}: &{{ api_alias }}::{{ kind }}) -> BTreeMap<String, String> {
    let (name, instance) = (NAME.to_owned(), {{ kind_var }}.name_any());
    let labels = [
        ("name", name),
        ("instance", instance),
        ("managed-by", MANAGED_BY.into()),
    ];
    BTreeMap::from(labels.map(|(k, v)| (format!("app.kubernetes.io/{k}"), v)))
}

/// The Deployment, named after `{{ kind_var }}`, that runs `image` with its size as replicas.
pub fn desired_deployment({{ kind_var }}: &{{ api_alias }}::{{ kind }}, image: &str) -> appsv1::Deployment {
    let spec = &{{ kind_var }}.spec;
    // Requests the scheduler can place on any node.
    let requests = [("cpu", "10m"), ("memory", "64Mi")];
    let requests = requests.map(|(name, value)| (name.to_owned(), Quantity(value.to_owned())));
    let container = corev1::Container {
        name: "{{ kind_lower }}".to_owned(),
        image: Some(image.to_owned()),
        image_pull_policy: Some("IfNotPresent".to_owned()),
{%- if container_command %}
        command: Some(COMMAND.iter().map(|arg| (*arg).to_owned()).collect()),
{%- endif %}
{%- if container_port %}
        ports: Some(vec![corev1::ContainerPort {
            container_port: spec.container_port,
            protocol: Some("TCP".to_owned()),
            ..Default::default()
        }]),
{%- endif %}
        resources: Some(corev1::ResourceRequirements {
            requests: Some(requests.into()),
            ..Default::default()
        }),
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
        metadata: Some(metav1::ObjectMeta {
            labels: Some(labels({{ kind_var }})),
            ..Default::default()
        }),
        spec: Some(pod),
    };
    appsv1::Deployment {
        // `Children::apply` adds the controller reference.
        metadata: metav1::ObjectMeta {
            name: Some({{ kind_var }}.name_any()),
            namespace: {{ kind_var }}.namespace(),
            labels: Some(labels({{ kind_var }})),
            ..Default::default()
        },
        // `.into()`: the spec is optional in the types of Kubernetes releases before 1.37.
        spec: appsv1::DeploymentSpec {
            replicas: Some(spec.size),
            selector,
            template,
            ..Default::default()
        }
        .into(),
        ..Default::default()
    }
}

/// The status `{{ kind_var }}` reports after a reconcile: kubebuilder's `Available`, with
/// `Progressing` and `Degraded`, from the Deployment's rollout or the failure, for the
/// generation this reconcile saw. An unchanged state yields the current status (and writes
/// nothing).
pub fn status(
    {{ kind_var }}: &{{ api_alias }}::{{ kind }},
    outcome: Result<Rollout, &ApplyError>,
) -> {{ api_alias }}::{{ kind }}Status {
    let current = {{ kind_var }}.status.as_ref().and_then(|s| s.conditions.clone());
    let mut conditions = current.unwrap_or_default();
    let generation = {{ kind_var }}.metadata.generation;
    let mut set = |t, v, r, m| set_condition(&mut conditions, condition(t, v, r, m, generation));
    let (failed, progressing, reason, message) = match &outcome {
        Err(error) => (true, false, error.reason(), error.to_string()),
        Ok(rollout) => match &rollout.state {
            RolloutState::Failed { reason, message } => (true, false, reason.as_str(), message.clone()),
            RolloutState::InProgress => (false, true, "RollingOut", rollout.summary()),
            RolloutState::Complete => (false, false, "RolloutComplete", rollout.summary()),
        },
    };
    match &outcome {
        Ok(rollout) => {
            let ok = rollout.available >= rollout.desired;
            let why = ["ReplicasUnavailable", "MinimumReplicasAvailable"][usize::from(ok)];
            set("Available", ok, why, rollout.summary());
        }
        Err(_) => {
            set("Available", false, reason, message.clone());
        }
    }
    set("Progressing", progressing, reason, message.clone());
    match failed {
        true => set("Degraded", true, reason, message),
        false => set("Degraded", false, "AsExpected", String::new()),
    };
    {{ api_alias }}::{{ kind }}Status {
        conditions: Some(conditions),
    }
}
