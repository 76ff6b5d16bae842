//! [`ControllerKit`]: what one kube-runtime `Controller` gets from the manager: caches filled by
//! one watch each, controller-runtime's reconcile and work-queue metrics, tracing spans,
//! recovery from panics, and retries on controller-runtime's rate limiter.

use std::fmt::{Debug, Display};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{FutureExt, Stream, StreamExt, TryStreamExt};
use kube::runtime::controller::{self, Action, Controller};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::dispatch::{Dispatcher, reference_key};
use super::panics::{ReconcileError, finished, started};
use super::{ControllerMetrics, Manager, Outcome, RequeueRateLimiter};

mod queueing;

/// `namespace/name` (or `name` for cluster-scoped objects): how logs and backoff name objects.
pub fn object_key<K: Resource>(object: &K) -> String {
    match object.meta().namespace.as_deref() {
        Some(namespace) => format!("{namespace}/{}", object.name_any()),
        None => object.name_any(),
    }
}

/// The share of the [`Manager`] that one controller of `K` uses. Cheap to clone.
///
/// ```text
/// let kit = manager.controller::<WebApp>("webapp");
/// let (deployments, deployment_changes) = kit.owned(Api::all(client.clone()), config);
/// let results = kit.build(Api::all(client), watcher::Config::default())
///     .owns_stream(deployment_changes)
///     .run(kit.reconcile(reconcile), kit.error_policy(), context);
/// kit.drive(results).await;
/// ```
pub struct ControllerKit<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    pub(super) shared: Arc<Shared<K>>,
}

impl<K> Clone for ControllerKit<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    fn clone(&self) -> Self {
        ControllerKit {
            shared: self.shared.clone(),
        }
    }
}

pub(super) struct Shared<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    pub(super) name: &'static str,
    pub(super) manager: Manager,
    pub(super) metrics: ControllerMetrics,
    rate_limiter: RequeueRateLimiter,
    store: Store<K>,
    writer: Mutex<Option<reflector::store::Writer<K>>>,
    /// The watches of [`ControllerKit::owns_compact`]'s caches, polled by the controller
    /// [`ControllerKit::run`] runs.
    pub(super) owner_triggers: Mutex<Vec<BoxStream<'static, ObjectRef<K>>>>,
    /// The priority queue [`ControllerKit::run`] picks objects from (unset for a controller of
    /// [`ControllerKit::build`], whose order is kube-runtime's).
    pub(super) dispatcher: OnceLock<Dispatcher<K>>,
}

impl<K> ControllerKit<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    pub(super) fn new(manager: Manager, name: &'static str) -> Self {
        let (store, writer) = reflector::store();
        ControllerKit {
            shared: Arc::new(Shared {
                name,
                metrics: manager
                    .metrics()
                    .controller(name, manager.options().max_concurrent_reconciles),
                manager,
                rate_limiter: RequeueRateLimiter::default(),
                store,
                writer: Mutex::new(Some(writer)),
                owner_triggers: Mutex::new(Vec::new()),
                dispatcher: OnceLock::new(),
            }),
        }
    }

    /// The controller's name, in logs and metrics.
    pub fn name(&self) -> &'static str {
        self.shared.name
    }

    /// The manager this controller runs on.
    pub fn manager(&self) -> &Manager {
        &self.shared.manager
    }

    /// The cache of the controller's own objects (filled once [`ControllerKit::build`] runs).
    pub fn store(&self) -> Store<K> {
        self.shared.store.clone()
    }

    /// When failed reconciles are retried (per-object backoff and an overall bucket).
    pub fn rate_limiter(&self) -> &RequeueRateLimiter {
        &self.shared.rate_limiter
    }

    /// A kube-runtime `Controller` of the `K` objects `api` and `config` select, reading them
    /// through this kit's cache, with the manager's concurrency and graceful shutdown. Its
    /// objects are reconciled in kube-runtime's order (first come, first served);
    /// [`ControllerKit::run`] picks them by priority.
    ///
    /// # Panics
    /// When called twice on the same kit.
    pub fn build(&self, api: Api<K>, config: watcher::Config) -> Controller<K> {
        let controller = self.controller_for(self.changes(api, config));
        match self.shared.manager.options().sync_period {
            Some(period) => {
                let shared = self.shared.clone();
                let resyncs = resyncs(period).inspect(move |()| shared.resynced());
                controller.reconcile_all_on(resyncs)
            }
            None => controller,
        }
    }

    /// As [`ControllerKit::build`], with the objects picked from a priority queue instead:
    /// changes before what an initial list or a resync brings, without starving either
    /// ([`crate::Priority`]). Every reconcile must go through [`ControllerKit::reconcile`]
    /// and its results through [`ControllerKit::drive`], which tell the queue what started.
    pub(super) fn build_prioritized(&self, api: Api<K>) -> Controller<K> {
        let changes = self.changes(api, watcher::Config::default());
        let manager = &self.shared.manager;
        let concurrency = usize::from(manager.options().max_concurrent_reconciles);
        let dispatcher = Dispatcher::new(concurrency);
        if self.shared.dispatcher.set(dispatcher.clone()).is_err() {
            unreachable!("`changes` is taken once per kit");
        }
        self.shared.metrics.queue.prioritize();
        // The watch fills the cache and queues what it sees; the dispatcher alone triggers.
        let watch_only = changes.try_filter(|_| std::future::ready(false));
        let mut controller = self
            .controller_for(watch_only)
            .reconcile_on(dispatcher.handed_over());
        if let Some(period) = manager.options().sync_period {
            let shared = self.shared.clone();
            controller = controller.reconcile_on(resyncs(period).filter_map(move |()| {
                shared.resynced();
                std::future::ready(None)
            }));
        }
        controller
    }

    /// The changes of the `K` objects `api` and `config` select, filling this kit's cache and
    /// queueing each changed object.
    fn changes(
        &self,
        api: Api<K>,
        config: watcher::Config,
    ) -> impl Stream<Item = Result<K, watcher::Error>> + Send + 'static {
        let writer = self
            .shared
            .writer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .expect("ControllerKit::build is called once per controller");
        let shared = self.shared.clone();
        watcher(api, config)
            .default_backoff()
            .modify(|object: &mut K| object.managed_fields_mut().clear())
            .reflect(writer)
            .inspect_ok(move |event| shared.own_event(event))
            .touched_objects()
    }

    /// A controller triggered by `changes`, reading this kit's cache, with the manager's
    /// concurrency and graceful shutdown.
    fn controller_for(
        &self,
        changes: impl Stream<Item = Result<K, watcher::Error>> + Send + 'static,
    ) -> Controller<K> {
        // kube-runtime holds its runner until the store is ready, and its graceful shutdown ends
        // the watch that fills the store: a shutdown before the first list is in would wait
        // forever. So the shutdown starts once the store is ready (the process still exits
        // after --graceful-shutdown-timeout).
        let manager = &self.shared.manager;
        let shutdown = manager.shutdown_signal();
        let store = self.shared.store.clone();
        let after_first_list = async move {
            shutdown.await;
            let _ = store.wait_until_ready().await;
        };
        Controller::for_stream(changes, self.shared.store.clone())
            .with_config(manager.controller_config())
            .graceful_shutdown_on(after_first_list)
    }

    /// Wraps `reconcile` with a tracing span, the reconcile and work-queue metrics, recovery
    /// from a panic (a [`ReconcileError::Panicked`], retried like an error), and forgets the
    /// object's backoff on success.
    pub fn reconcile<Ctx, E, F, Fut>(
        &self,
        reconcile: F,
    ) -> impl FnMut(Arc<K>, Arc<Ctx>) -> BoxFuture<'static, Result<Action, ReconcileError<E>>>
    + use<K, Ctx, E, F, Fut>
    where
        F: Fn(Arc<K>, Arc<Ctx>) -> Fut,
        Fut: Future<Output = Result<Action, E>> + Send + 'static,
        E: Send + 'static,
    {
        let shared = self.shared.clone();
        move |object, context| {
            let key = object_key(&*object);
            shared.metrics.queue.start(&key);
            if let Some(dispatcher) = shared.dispatcher.get() {
                dispatcher.started(&key);
            }
            shared.metrics.reconciles.started();
            let span = tracing::info_span!("reconcile", controller = shared.name, object = %key);
            let start = Instant::now();
            // Called here, not in the future: a reconciler may panic before its first await.
            let reconciling = started(|| reconcile(object, context));
            let shared = shared.clone();
            async move {
                let (outcome, panicked, result) = match finished(reconciling).await {
                    Ok(Ok(action)) => {
                        shared.rate_limiter.forget(&key);
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
                shared
                    .metrics
                    .reconciles
                    .finished(outcome, panicked, start.elapsed());
                shared.metrics.queue.done(&key);
                result
            }
            .instrument(span)
            .boxed()
        }
    }

    /// An error policy that logs the error and retries the object after the rate limiter's
    /// delay: its own exponential backoff (5 ms doubling up to 1000 s, reset by a success or
    /// its deletion), or longer when many objects fail at once (10 retries per second, bursts
    /// of 100).
    pub fn error_policy<Ctx, E>(&self) -> impl Fn(Arc<K>, &E, Arc<Ctx>) -> Action + use<K, Ctx, E>
    where
        E: Display,
    {
        let shared = self.shared.clone();
        move |object, error, _| {
            let key = object_key(&*object);
            if shared.store.get(&ObjectRef::from_obj(&*object)).is_none() {
                // Deleted while it was being reconciled: nothing to retry.
                tracing::debug!(controller = shared.name, object = %key, %error,
                    "reconcile of a deleted object failed");
                shared.rate_limiter.forget(&key);
                return Action::await_change();
            }
            let delay = shared.rate_limiter.when(&key);
            shared.metrics.queue.add_after(&key, delay);
            tracing::warn!(controller = shared.name, object = %key, %error, retry_in = ?delay,
                "reconcile failed");
            Action::requeue(delay)
        }
    }

    /// Runs the stream `Controller::run` returns to its end (the manager's shutdown), logging
    /// what the error policy does not see: watch errors and objects gone before their turn.
    pub async fn drive<E>(
        &self,
        results: impl Stream<
            Item = Result<(ObjectRef<K>, Action), controller::Error<E, watcher::Error>>,
        >,
    ) where
        E: std::error::Error + 'static,
    {
        let name = self.shared.name;
        let dispatcher = self.shared.dispatcher.get();
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
                        self.shared.metrics.queue.remove(&key);
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
}

/// A tick every `period`, the first one `period` from now: `--sync-period`.
fn resyncs(period: Duration) -> impl Stream<Item = ()> + Send + 'static {
    let ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    futures::stream::unfold(ticks, |mut ticks| async move {
        ticks.tick().await;
        Some(((), ticks))
    })
}
