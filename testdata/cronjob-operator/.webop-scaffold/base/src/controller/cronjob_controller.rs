//! The CronJob controller.
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
use kube::{Client, Resource};
use webop::manager::Manager;
use webop::prelude::*;

use cronjob_operator_api::v1 as batchv1;

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "cronjob";
/// The field manager of everything this controller applies, and the reporter of its events.
pub const FIELD_MANAGER: &str = "cronjob-operator-controller";

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
    pub recorder: Recorder,
}

/// Why a reconcile failed; the CronJob is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

/// Runs the controller until the manager shuts down.
pub async fn run(manager: Manager) {
    let kit = manager.controller::<batchv1::CronJob>(NAME);
    // TODO(user): cache and watch the objects this controller creates: `kit.owned(api, config)`
    // returns their cache (put it in the Context) and the stream to pass to `.owns_stream(...)`.
    let context = Arc::new(Context {
        client: manager.client(),
        recorder: manager.recorder(FIELD_MANAGER),
    });
    // Every namespace, or the one of `--watch-namespace`.
    let api = manager.api::<batchv1::CronJob>();
    let results = kit.build(api, watcher::Config::default()).run(
        kit.reconcile(reconcile),
        kit.error_policy(),
        context,
    );
    kit.drive(results).await;
}

/// Moves the cluster towards the state `cronjob` asks for. Called whenever a CronJob
/// (or an object it owns) changes, and for every CronJob when the controller starts; must be
/// idempotent.
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs/finalizers"], verbs = ["update"])]
#[rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub async fn reconcile(cronjob: Arc<batchv1::CronJob>, ctx: Arc<Context>) -> Result<Action, Error> {
    tracing::debug!(generation = ?cronjob.meta().generation, "reconciling");
    // TODO(user): compare what cronjob.spec asks for with the cached state, apply only
    // what differs (server-side apply with FIELD_MANAGER; `webop::manager::already_applied`
    // tells whether a cached object already has every field), and write the status only when
    // it changes.
    let _ = &ctx.client;
    // No requeue: watches bring the next reconcile.
    Ok(Action::await_change())
}
