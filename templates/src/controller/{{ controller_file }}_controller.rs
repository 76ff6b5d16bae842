//! The {% if named_controller %}`{{ controller_name }}` controller of {{ kind }}{% else %}{{ kind }} controller{% endif %}.
//!
//! The manager runs [`run`]; [`reconcile`] is yours to fill. The structure is the one an
//! expert would write on kube-rs: objects come from a cache that a watch keeps (never GETs),
//! reconciles are triggered by changes (no polling), failures back off per object, and
//! metrics, logs and readiness come from `webop::manager`; `webop::manager::reconcile` applies
//! owned objects exactly, writes the status only when it changed and records events.
//! `webop create api --image` scaffolds a complete example that owns a Deployment and a Service.

use std::sync::Arc;

use kube::Resource;
use kube::runtime::controller::Action;
use webop::manager::Manager;
use webop::manager::reconcile::Children;
use webop::prelude::*;

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "{{ controller_name }}";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "{{ project_name }}-controller";

/// What every reconcile gets.
pub struct Context {
    /// Applies owned objects, writes the status and records events, as `FIELD_MANAGER`.
    pub children: Children,
    // TODO(user): the caches of the objects this controller creates:
    // `kit.owns_compact(manager.api(), config)` in `run`.
}

/// Why a reconcile failed; the {{ kind }} is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Apply(#[from] webop::manager::ApplyError),
    #[error("{}", webop::manager::one_line(.0))]
    Kube(#[from] kube::Error),
}

/// Runs the controller until the manager shuts down.
pub async fn run(manager: Manager) {
    let kit = manager.controller::<{{ api_alias }}::{{ kind }}>(NAME);
    let context = Context {
        children: manager.children(FIELD_MANAGER),
    };
{%- if namespaced %}
    // Every namespace, or the one of `--watch-namespace`.
    kit.run(manager.api(), reconcile, context).await;
{%- else %}
    let api = kube::Api::all(manager.client());
    kit.run(api, reconcile, context).await;
{%- endif %}
}

/// Moves the cluster towards the state `{{ kind_var }}` asks for. Called whenever a {{ kind }}
/// (or an object it owns) changes, and for every {{ kind }} when the controller starts; must be
/// idempotent.
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/finalizers"], verbs = ["update"])]
#[rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile({{ kind_var }}: Arc<{{ api_alias }}::{{ kind }}>, ctx: Arc<Context>) -> Result<Action, Error> {
    tracing::debug!(generation = ?{{ kind_var }}.meta().generation, "reconciling");
    // TODO(user): build the objects {{ kind_var }}.spec asks for and apply each with
    // `ctx.children.apply(&*{{ kind_var }}, desired, cached)` (it sends nothing when the cached copy
    // is already exactly that), then write the status with `ctx.children.write_status`.
    let _ = &ctx.children;
    // No requeue: watches bring the next reconcile.
    Ok(Action::await_change())
}
