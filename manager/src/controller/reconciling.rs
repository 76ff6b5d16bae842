//! What every reconcile of a controller and its outcome go through, for objects of any type:
//! its kind's ([`super::ControllerKit::build`]) or type-erased ones
//! ([`super::ControllerKit::run`]).

use std::fmt::{Debug, Display};
use std::sync::Arc;
use std::time::Instant;

use futures::future::BoxFuture;
use futures::{FutureExt, Stream, StreamExt};
use kube::Resource;
use kube::runtime::controller::{self, Action};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::watcher;
use tracing::Instrument;

use super::super::Outcome;
use super::super::dispatch::reference_key;
use super::super::panics::{ReconcileError, finished, started};
use super::{Core, object_key};

/// `reconcile` with a tracing span, the reconcile and work-queue metrics, recovery from a
/// panic, and the object's backoff forgotten on success ([`ControllerKit::reconcile`]).
pub(super) fn wrap_reconcile<O, Ctx, E, F, Fut>(
    core: Arc<Core>,
    reconcile: F,
) -> impl FnMut(Arc<O>, Arc<Ctx>) -> BoxFuture<'static, Result<Action, ReconcileError<E>>>
+ use<O, Ctx, E, F, Fut>
where
    O: Resource,
    F: Fn(Arc<O>, Arc<Ctx>) -> Fut,
    Fut: Future<Output = Result<Action, E>> + Send + 'static,
    E: Send + 'static,
{
    move |object, context| {
        let key = object_key(&*object);
        core.metrics.queue.start(&key);
        if let Some(dispatcher) = core.dispatcher.get() {
            dispatcher.started(&key);
        }
        core.metrics.reconciles.started();
        let span = tracing::info_span!("reconcile", controller = core.name, object = %key);
        let start = Instant::now();
        // Called here, not in the future: a reconciler may panic before its first await.
        let reconciling = started(|| reconcile(object, context));
        let core = core.clone();
        async move {
            let (outcome, panicked, result) = match finished(reconciling).await {
                Ok(Ok(action)) => {
                    core.rate_limiter.forget(&key);
                    let outcome = if action == Action::await_change() {
                        Outcome::Success
                    } else {
                        Outcome::RequeueAfter
                    };
                    (outcome, false, Ok(action))
                }
                Ok(Err(error)) => (Outcome::Error, false, Err(ReconcileError::Failed(error))),
                Err(message) => {
                    tracing::error!(panic = %message, "reconcile panicked");
                    (Outcome::Error, true, Err(ReconcileError::Panicked(message)))
                }
            };
            core.metrics
                .reconciles
                .finished(outcome, panicked, start.elapsed());
            core.metrics.queue.done(&key);
            result
        }
        .instrument(span)
        .boxed()
    }
}

/// [`ControllerKit::error_policy`], for the objects of `store` (of `dyntype`).
pub(super) fn error_policy<O, Ctx, E>(
    core: Arc<Core>,
    store: Store<O>,
    dyntype: O::DynamicType,
) -> impl Fn(Arc<O>, &E, Arc<Ctx>) -> Action + use<O, Ctx, E>
where
    O: Resource + Clone + 'static,
    O::DynamicType: Eq + std::hash::Hash + Clone,
    E: Display,
{
    move |object, error, _| {
        let key = object_key(&*object);
        if store
            .get(&ObjectRef::from_obj_with(&*object, dyntype.clone()))
            .is_none()
        {
            // Deleted while it was being reconciled: nothing to retry.
            tracing::debug!(controller = core.name, object = %key, %error,
                "reconcile of a deleted object failed");
            core.rate_limiter.forget(&key);
            return Action::await_change();
        }
        let delay = core.rate_limiter.when(&key);
        core.metrics.queue.add_after(&key, delay);
        tracing::warn!(controller = core.name, object = %key, %error, retry_in = ?delay,
            "reconcile failed");
        Action::requeue(delay)
    }
}

/// [`ControllerKit::drive`].
pub(super) async fn drive<O, E>(
    core: &Core,
    results: impl Stream<Item = Result<(ObjectRef<O>, Action), controller::Error<E, watcher::Error>>>,
) where
    O: Resource,
    O::DynamicType: Debug,
    E: std::error::Error + 'static,
{
    let name = core.name;
    let dispatcher = core.dispatcher.get();
    results
        .for_each(|result| {
            match result {
                Ok((object, _)) => tracing::debug!(controller = name, %object, "reconciled"),
                // Already logged by the error policy.
                Err(controller::Error::ReconcilerFailed(..)) => {}
                Err(controller::Error::ObjectNotFound(object)) => {
                    // Gone while queued (deleted during a relist, which sends no deletion
                    // event): it leaves the queue, and its place in the runner.
                    let key = reference_key(&*object);
                    core.metrics.queue.remove(&key);
                    if let Some(dispatcher) = dispatcher {
                        dispatcher.started(&key);
                    }
                    tracing::debug!(controller = name, %object, "gone before its reconcile")
                }
                Err(error) => tracing::warn!(controller = name, %error, "controller error"),
            }
            std::future::ready(())
        })
        .await;
    tracing::info!(controller = name, "controller stopped");
}
