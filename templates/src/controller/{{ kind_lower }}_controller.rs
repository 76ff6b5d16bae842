//! The {{ kind }} controller.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Api, Client, ResourceExt};
use tracing::{info, warn};
use webop::prelude::*;

use {{ api_crate }}::{{ version }}::{{ kind }};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "{{ kind_lower }}";

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
}

/// Why a reconcile failed; the {{ kind }} is retried.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

/// Runs the controller until shutdown (Ctrl-C or SIGTERM).
pub async fn run(client: Client) {
    let {{ plural_var }} = Api::<{{ kind }}>::all(client.clone());
    // TODO(user): watch the objects this controller creates with `.owns(api, config)`.
    Controller::new({{ plural_var }}, watcher::Config::default())
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

/// Moves the cluster towards the state `{{ kind_var }}` asks for. Called whenever a {{ kind }}
/// changes (and for every {{ kind }} when the controller starts); must be idempotent.
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["{{ group_domain }}"], resources = ["{{ plural }}/finalizers"], verbs = ["update"])]
pub async fn reconcile({{ kind_var }}: Arc<{{ kind }}>, ctx: Arc<Context>) -> Result<Action, Error> {
    info!(name = %{{ kind_var }}.name_any(), namespace = ?{{ kind_var }}.namespace(), "reconciling");
    // TODO(user): compare the state {{ kind_var }}.spec asks for with the cluster's (read it with
    // ctx.client), create or update what differs, and report it in {{ kind_var }}'s status.
    let _ = &ctx.client;
    Ok(Action::await_change())
}

/// Retries a failed reconcile after a pause (the controller backs off on repeated failures).
pub fn error_policy(_: Arc<{{ kind }}>, _: &Error, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_secs(10))
}
