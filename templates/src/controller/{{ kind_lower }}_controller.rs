//! The {{ kind }} controller.
//!
//! The manager runs [`run`]; [`reconcile`] is yours to fill. The structure is the one an
//! expert would write on kube-rs: objects come from a cache that a watch keeps (never GETs),
//! reconciles are triggered by changes (no polling), failures back off per object, and
//! metrics, logs and readiness come from `webop::manager`. `webop create api --image` scaffolds
//! a complete example that owns a Deployment and a Service.

use std::sync::Arc;

use kube::runtime::controller::Action;
use kube::runtime::events::Recorder;
use kube::runtime::watcher;
{% if namespaced %}use kube::{Client, Resource};{% else %}use kube::{Api, Client, Resource};{% endif %}
use webop::manager::Manager;
use webop::prelude::*;

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "{{ controller_name }}";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "{{ project_name }}-controller";

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
    pub recorder: Recorder,
}

/// Why a reconcile failed; the {{ kind }} is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

/// Runs the controller until the manager shuts down.
pub async fn run(manager: Manager) {
    let kit = manager.controller::<{{ api_alias }}::{{ kind }}>(NAME);
    // TODO(user): cache and watch the objects this controller creates: `kit.owned(api, config)`
    // returns their cache (put it in the Context) and the stream to pass to `.owns_stream(...)`.
    let context = Arc::new(Context {
        client: manager.client(),
        recorder: manager.recorder(FIELD_MANAGER),
    });
{%- if namespaced %}
    // Every namespace, or the one of `--watch-namespace`.
    let api = manager.api::<{{ api_alias }}::{{ kind }}>();
{%- else %}
    let api = Api::<{{ api_alias }}::{{ kind }}>::all(manager.client());
{%- endif %}
    let results = kit
        .build(api, watcher::Config::default())
        .run(kit.reconcile(reconcile), kit.error_policy(), context);
    kit.drive(results).await;
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
    // TODO(user): compare what {{ kind_var }}.spec asks for with the cached state, apply only
    // what differs (server-side apply with FIELD_MANAGER; `webop::manager::already_applied`
    // tells whether a cached object already has every field), and write the status only when
    // it changes.
    let _ = &ctx.client;
    // No requeue: watches bring the next reconcile.
    Ok(Action::await_change())
}
