//! The children a controller owns: their caches, and the controller that their changes trigger.

use std::fmt::Debug;
use std::sync::Arc;

use futures::stream::BoxStream;
use futures::{Stream, StreamExt, TryStreamExt};
use kube::runtime::controller::Action;
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::compact_store::CompactStore;
use super::controller::{ControllerKit, erased};

impl<K> ControllerKit<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    /// A cache of the `Child` objects `api` and `config` select, and the stream of their
    /// changes for `Controller::owns_stream`. Reconciles read children from the cache instead
    /// of the API server. `managedFields` are reduced to the server-side-apply entries, which
    /// [`Children`](crate::reconcile::Children) reads to tell an unchanged child.
    pub fn owned<Child>(
        &self,
        api: Api<Child>,
        config: watcher::Config,
    ) -> (
        Store<Child>,
        impl Stream<Item = Result<Child, watcher::Error>> + Send + 'static,
    )
    where
        Child:
            Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    {
        let (store, writer) = reflector::store();
        let events = child_events(api, config);
        let shared = self.shared.clone();
        let changes = events
            .reflect(writer)
            .inspect_ok(move |event| shared.child_event(event))
            .touched_objects();
        (store, changes)
    }

    /// As [`ControllerKit::owned`], with the children cached as JSON ([`CompactStore`]): a
    /// fifth of the memory of k8s-openapi structs for large kinds (Deployments), one
    /// deserialization per read. For controllers that read a child by name in its owner's
    /// reconcile and may own thousands.
    pub fn owned_compact<Child>(
        &self,
        api: Api<Child>,
        config: watcher::Config,
    ) -> (
        CompactStore<Child>,
        impl Stream<Item = Result<Child, watcher::Error>> + Send + 'static,
    )
    where
        Child: Resource<DynamicType = ()>
            + Clone
            + Serialize
            + DeserializeOwned
            + Debug
            + Send
            + Sync
            + 'static,
    {
        let store = CompactStore::default();
        let writer = store.clone();
        let events = child_events(api, config);
        let shared = self.shared.clone();
        let changes = events
            .inspect_ok(move |event| {
                writer.apply_event(event);
                shared.child_event(event);
            })
            .touched_objects();
        (store, changes)
    }

    /// As [`ControllerKit::owned_compact`], and the changes of the children are added to the
    /// controller [`ControllerKit::run`] runs: each queues its controlling owner.
    /// controller-runtime: `Owns(&appsv1.Deployment{})` in `SetupWithManager`.
    pub fn owns_compact<Child>(
        &self,
        api: Api<Child>,
        config: watcher::Config,
    ) -> CompactStore<Child>
    where
        Child: Resource<DynamicType = ()>
            + Clone
            + Serialize
            + DeserializeOwned
            + Debug
            + Send
            + Sync
            + 'static,
    {
        let (store, changes) = self.owned_compact(api, config);
        let name = self.shared.core.name;
        // The watch queues each change's owner itself (`child_event`); the controller polls
        // it, for the cache, and is triggered by the queue alone.
        let watch_only = changes
            .filter_map(move |change| {
                if let Err(error) = change {
                    tracing::warn!(controller = name, %error, "watch error");
                }
                std::future::ready(None)
            })
            .boxed();
        self.shared.core.add_owner_trigger(watch_only);
        store
    }

    /// Runs the controller of the `K` objects of `api`, and of the children
    /// of [`ControllerKit::owns_compact`], until the manager shuts down, with
    /// [`ControllerKit::reconcile`], [`ControllerKit::error_policy`] and [`ControllerKit::drive`].
    /// Objects are picked by priority, as controller-runtime's priority queue picks them: a
    /// change (of the object or a child) goes before what the initial list or a resync brings,
    /// and one pick in four goes to the latter while both wait, so neither starves.
    /// controller-runtime: `ctrl.NewControllerManagedBy(mgr).For(...).Owns(...).Complete(r)`.
    ///
    /// Only the watch of `K` and the call of `reconcile` are compiled for `K`: the loop itself is
    /// over type-erased objects, compiled once in this crate.
    ///
    /// # Panics
    /// When called twice on the same kit, or after [`ControllerKit::build`].
    pub async fn run<Ctx, E, F, Fut>(&self, api: Api<K>, reconcile: F, context: Ctx)
    where
        Ctx: Send + Sync + 'static,
        F: Fn(Arc<K>, Arc<Ctx>) -> Fut + Send + 'static,
        Fut: Future<Output = Result<Action, E>> + Send + 'static,
        E: std::error::Error + Send + 'static,
    {
        let changes = self.erased_changes(api);
        let reconcile = erased::erase_reconcile(reconcile, context);
        erased::run(self.shared.core.clone(), changes, reconcile).await;
    }
}

/// The watch events of the children `api` and `config` select (managed fields reduced to apply
/// entries). Generic over the child alone and boxed, so that an operator's crate reuses the
/// instances [`crate::common_kinds`] compiled for the kinds children most often are.
pub(crate) fn child_events<Child>(
    api: Api<Child>,
    config: watcher::Config,
) -> BoxStream<'static, Result<watcher::Event<Child>, watcher::Error>>
where
    Child: Resource<DynamicType = ()> + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
{
    watcher(api, config)
        .default_backoff()
        .modify(keep_apply_entries)
        .boxed()
}

/// Keeps, of an object's managed fields, the entries of server-side applies to the main
/// resource: the few fields a reconcile compares, not the large entries of status updates.
fn keep_apply_entries<T: Resource>(object: &mut T) {
    object
        .managed_fields_mut()
        .retain(|entry| entry.operation.as_deref() == Some("Apply") && entry.subresource.is_none());
}
