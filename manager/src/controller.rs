//! [`ControllerKit`]: what one kube-runtime `Controller` gets from the manager: caches filled by
//! one watch each, controller-runtime's reconcile and work-queue metrics, tracing spans,
//! recovery from panics, and retries on controller-runtime's rate limiter.
//!
//! What does not depend on the controller's kind is in [`Core`], and the loop
//! [`ControllerKit::run`] runs is over type-erased objects ([`erased`]): both are compiled once,
//! here, not in each operator crate for each of its kinds.

use std::fmt::{Debug, Display};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt, TryStreamExt};
use kube::runtime::controller::{self, Action, Controller};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::watcher::{self, Event};
use kube::runtime::{WatchStreamExt, watcher as watch};
use kube::{Api, Resource, ResourceExt};
use serde::de::DeserializeOwned;

use super::dispatch::Dispatcher;
use super::panics::ReconcileError;
use super::{ControllerMetrics, Manager, RequeueRateLimiter};

pub(crate) mod erased;
mod queueing;
mod reconciling;

use reconciling::{drive, error_policy, wrap_reconcile};

pub(crate) use erased::{Erased, ErasedKind};

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

/// What a controller has whatever its kind: its name, metrics, rate limiter and queue, and the
/// cache of [`ControllerKit::run`]'s loop.
pub(crate) struct Core {
    pub(crate) name: &'static str,
    pub(crate) manager: Manager,
    pub(crate) metrics: ControllerMetrics,
    rate_limiter: RequeueRateLimiter,
    /// The controller's kind, as its erased objects carry it.
    pub(crate) kind: ErasedKind,
    /// The cache of [`ControllerKit::run`]'s objects, and its writer until the watch takes it.
    erased_store: Store<Erased>,
    erased_writer: Mutex<Option<reflector::store::Writer<Erased>>>,
    /// The watches of [`ControllerKit::owns_compact`]'s caches, polled by the controller
    /// [`ControllerKit::run`] runs (they yield nothing).
    owner_triggers: Mutex<Vec<BoxStream<'static, ObjectRef<Erased>>>>,
    /// The priority queue [`ControllerKit::run`] picks objects from (unset for a controller of
    /// [`ControllerKit::build`], whose order is kube-runtime's).
    dispatcher: OnceLock<Dispatcher<Erased>>,
}

pub(super) struct Shared<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    pub(super) core: Arc<Core>,
    /// The cache of [`ControllerKit::build`]'s objects, and its writer until the watch takes it.
    store: Store<K>,
    writer: Mutex<Option<reflector::store::Writer<K>>>,
}

/// Takes the writer in `slot`.
fn take_writer<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

impl<K> Shared<K>
where
    K: Resource<DynamicType = ()> + Clone + 'static,
{
    /// Takes the writers of both caches, and keeps the one `keep` picks: a kit watches its own
    /// kind once, for [`ControllerKit::build`] or for [`ControllerKit::run`].
    fn start_watch<T>(
        &self,
        keep: impl FnOnce(reflector::store::Writer<K>, reflector::store::Writer<Erased>) -> T,
    ) -> T {
        let typed = take_writer(&self.writer);
        let erased = take_writer(&self.core.erased_writer);
        match typed.zip(erased) {
            Some((typed, erased)) => keep(typed, erased),
            None => panic!("ControllerKit::build or ControllerKit::run is called once per kit"),
        }
    }
}

impl<K> ControllerKit<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    pub(super) fn new(manager: Manager, name: &'static str) -> Self {
        let (store, writer) = reflector::store();
        let kind = ErasedKind::of::<K>();
        let erased_writer = reflector::store::Writer::new(kind.clone());
        let core = Core {
            name,
            metrics: manager
                .metrics()
                .controller(name, manager.options().max_concurrent_reconciles),
            manager,
            rate_limiter: RequeueRateLimiter::default(),
            kind,
            erased_store: erased_writer.as_reader(),
            erased_writer: Mutex::new(Some(erased_writer)),
            owner_triggers: Mutex::new(Vec::new()),
            dispatcher: OnceLock::new(),
        };
        ControllerKit {
            shared: Arc::new(Shared {
                core: Arc::new(core),
                store,
                writer: Mutex::new(Some(writer)),
            }),
        }
    }

    /// The controller's name, in logs and metrics.
    pub fn name(&self) -> &'static str {
        self.shared.core.name
    }

    /// The manager this controller runs on.
    pub fn manager(&self) -> &Manager {
        &self.shared.core.manager
    }

    /// The cache of the controller's own objects, filled once [`ControllerKit::build`] runs. (The
    /// controller [`ControllerKit::run`] runs keeps its objects in a cache of its own.)
    pub fn store(&self) -> Store<K> {
        self.shared.store.clone()
    }

    /// When failed reconciles are retried (per-object backoff and an overall bucket).
    pub fn rate_limiter(&self) -> &RequeueRateLimiter {
        &self.shared.core.rate_limiter
    }

    /// A kube-runtime `Controller` of the `K` objects `api` and `config` select, reading them
    /// through this kit's cache, with the manager's concurrency and graceful shutdown. Its
    /// objects are reconciled in kube-runtime's order (first come, first served);
    /// [`ControllerKit::run`] picks them by priority.
    ///
    /// # Panics
    /// When called twice on the same kit.
    pub fn build(&self, api: Api<K>, config: watcher::Config) -> Controller<K> {
        let writer = self.shared.start_watch(|typed, _| typed);
        let shared = self.shared.clone();
        let changes = watch(api, config)
            .default_backoff()
            .modify(|object: &mut K| object.managed_fields_mut().clear())
            .reflect(writer)
            .inspect_ok(move |event| shared.core.own_event(event))
            .touched_objects();
        let core = &self.shared.core;
        let controller = controller_over(core, changes, self.shared.store.clone(), ());
        match core.manager.options().sync_period {
            Some(period) => {
                let shared = self.shared.clone();
                let resyncs = resyncs(period).inspect(move |()| shared.resynced());
                controller.reconcile_all_on(resyncs)
            }
            None => controller,
        }
    }

    /// The changes of the `K` objects of `api`, type-erased, filling the cache of
    /// [`ControllerKit::run`]'s loop and queueing each changed object. Only this, the watch
    /// itself, is compiled for `K`.
    pub(super) fn erased_changes(
        &self,
        api: Api<K>,
    ) -> BoxStream<'static, Result<Erased, watcher::Error>> {
        let events = watch(api, watcher::Config::default())
            .default_backoff()
            .modify(|object: &mut K| object.managed_fields_mut().clear())
            .map_ok(erase_event)
            .boxed();
        let writer = self.shared.start_watch(|_, erased| erased);
        erased::cached_changes(self.shared.core.clone(), events, writer)
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
        wrap_reconcile(self.shared.core.clone(), reconcile)
    }

    /// An error policy that logs the error and retries the object after the rate limiter's
    /// delay: its own exponential backoff (5 ms doubling up to 1000 s, reset by a success or
    /// its deletion), or longer when many objects fail at once (10 retries per second, bursts
    /// of 100).
    pub fn error_policy<Ctx, E>(&self) -> impl Fn(Arc<K>, &E, Arc<Ctx>) -> Action + use<K, Ctx, E>
    where
        E: Display,
    {
        error_policy(self.shared.core.clone(), self.shared.store.clone(), ())
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
        drive(&self.shared.core, results).await;
    }
}

/// A watch event of `K`, its object type-erased.
fn erase_event<K>(event: Event<K>) -> Event<Erased>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    match event {
        Event::Apply(object) => Event::Apply(Erased::new(object)),
        Event::Delete(object) => Event::Delete(Erased::new(object)),
        Event::Init => Event::Init,
        Event::InitApply(object) => Event::InitApply(Erased::new(object)),
        Event::InitDone => Event::InitDone,
    }
}

/// A controller triggered by `changes`, reading `store` (of objects of `dyntype`), with the
/// manager's concurrency and graceful shutdown.
fn controller_over<O>(
    core: &Core,
    changes: impl Stream<Item = Result<O, watcher::Error>> + Send + 'static,
    store: Store<O>,
    dyntype: O::DynamicType,
) -> Controller<O>
where
    O: Resource + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    O::DynamicType: Eq + std::hash::Hash + Clone,
{
    // kube-runtime holds its runner until the store is ready, and its graceful shutdown ends
    // the watch that fills the store: a shutdown before the first list is in would wait
    // forever. So the shutdown starts once the store is ready (the process still exits
    // after --graceful-shutdown-timeout).
    let shutdown = core.manager.shutdown_signal();
    let ready = store.clone();
    let after_first_list = async move {
        shutdown.await;
        let _ = ready.wait_until_ready().await;
    };
    Controller::for_stream_with(changes, store, dyntype)
        .with_config(core.manager.controller_config())
        .graceful_shutdown_on(after_first_list)
}

/// A tick every `period`, the first one `period` from now: `--sync-period`.
fn resyncs(period: Duration) -> impl Stream<Item = ()> + Send + 'static {
    let ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    futures::stream::unfold(ticks, |mut ticks| async move {
        ticks.tick().await;
        Some(((), ticks))
    })
}
