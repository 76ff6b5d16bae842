//! The controller loop of [`ControllerKit::run`](super::ControllerKit::run), with the kind of
//! its objects erased, so that it is compiled once, here, rather than in every operator crate
//! for each of its kinds (and again for the crate's unit-test harness).
//!
//! kube-runtime's `Controller` is generic over the objects it reconciles: its scheduler, runner
//! and trigger streams, and webop's wrappers around them, are compiled for each kind. Only the
//! watch of a kind needs its type (serde's deserialization of it); so `run` watches `K`, wraps
//! each object in an [`Erased`] (an `Arc` of it, nothing copied), and hands the rest to
//! [`run`]. The reconciler gets the `Arc<K>` back ([`Erased::downcast`]).

use std::any::Any;
use std::borrow::Cow;
use std::fmt::{self, Debug};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt, TryFutureExt, TryStreamExt};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::Resource;
use kube::core::DynamicResourceScope;
use kube::runtime::WatchStreamExt;
use kube::runtime::controller::Action;
use kube::runtime::reflector::store::Writer;
use kube::runtime::watcher::{self, Event};

use super::Core;
use crate::dispatch::Dispatcher;

/// An object of a controller's kind, its type erased; cloning it clones an `Arc`.
#[derive(Clone)]
pub(crate) struct Erased(Arc<dyn ErasedObject>);

/// What the controller loop asks of an object, for any `K`.
trait ErasedObject: Send + Sync + 'static {
    fn meta(&self) -> &ObjectMeta;
    fn meta_mut(&mut self) -> &mut ObjectMeta;
    fn copied(&self) -> Arc<dyn ErasedObject>;
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<K> ErasedObject for K
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    fn meta(&self) -> &ObjectMeta {
        Resource::meta(self)
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        Resource::meta_mut(self)
    }

    fn copied(&self) -> Arc<dyn ErasedObject> {
        Arc::new(self.clone())
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }

    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(self, f)
    }
}

impl Erased {
    pub(crate) fn new<K>(object: K) -> Self
    where
        K: Resource + Clone + Debug + Send + Sync + 'static,
    {
        Erased(Arc::new(object))
    }

    /// The object, as the `K` it was made of.
    ///
    /// # Panics
    /// When it was made of another type: a controller's objects are all of its kind.
    pub(crate) fn downcast<K: Send + Sync + 'static>(&self) -> Arc<K> {
        match self.0.clone().into_any().downcast::<K>() {
            Ok(object) => object,
            Err(_) => unreachable!("a controller's objects are all of its kind"),
        }
    }
}

impl Debug for Erased {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

/// kube-runtime's `Controller` asks its objects to be deserializable, for `Controller::new`'s
/// own watch; an erased controller is fed by a watch of its kind instead, so this is never used.
impl<'de> serde::Deserialize<'de> for Erased {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(
            "a type-erased object is made from its kind's, never deserialized",
        ))
    }
}

/// A controller's kind, as its erased objects and their references carry it. Two are equal when
/// they are the same controller's (a pointer comparison: references are hashed and compared
/// often).
#[derive(Clone, Debug)]
pub(crate) struct ErasedKind(Arc<KindNames>);

#[derive(Debug)]
struct KindNames {
    kind: String,
    group: String,
    version: String,
    plural: String,
}

impl ErasedKind {
    pub(crate) fn of<K: Resource<DynamicType = ()>>() -> Self {
        ErasedKind(Arc::new(KindNames {
            kind: K::kind(&()).into_owned(),
            group: K::group(&()).into_owned(),
            version: K::version(&()).into_owned(),
            plural: K::plural(&()).into_owned(),
        }))
    }
}

impl PartialEq for ErasedKind {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ErasedKind {}

impl Hash for ErasedKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(Arc::as_ptr(&self.0), state);
    }
}

impl Resource for Erased {
    type DynamicType = ErasedKind;
    type Scope = DynamicResourceScope;

    fn kind(dt: &ErasedKind) -> Cow<'_, str> {
        Cow::Borrowed(&dt.0.kind)
    }

    fn group(dt: &ErasedKind) -> Cow<'_, str> {
        Cow::Borrowed(&dt.0.group)
    }

    fn version(dt: &ErasedKind) -> Cow<'_, str> {
        Cow::Borrowed(&dt.0.version)
    }

    fn plural(dt: &ErasedKind) -> Cow<'_, str> {
        Cow::Borrowed(&dt.0.plural)
    }

    fn meta(&self) -> &ObjectMeta {
        self.0.meta()
    }

    /// Copies the object first when another holder shares it.
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        if Arc::get_mut(&mut self.0).is_none() {
            self.0 = self.0.copied();
        }
        match Arc::get_mut(&mut self.0) {
            Some(object) => object.meta_mut(),
            None => unreachable!("a fresh copy has no other holder"),
        }
    }
}

/// A reconciler's error, its type erased: it displays, and has the source, of the original.
pub(crate) struct BoxedError(Box<dyn std::error::Error + Send>);

impl BoxedError {
    pub(crate) fn new(error: impl std::error::Error + Send + 'static) -> Self {
        BoxedError(Box::new(error))
    }
}

impl Debug for BoxedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for BoxedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for BoxedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A reconciler of one kind, its object and context types erased.
pub(crate) type ErasedReconcile =
    Box<dyn Fn(&Erased) -> BoxFuture<'static, Result<Action, BoxedError>> + Send>;

/// `reconcile` over erased objects: each is handed to it as the `K` it was made of.
pub(crate) fn erase_reconcile<K, Ctx, E, F, Fut>(reconcile: F, context: Ctx) -> ErasedReconcile
where
    K: Send + Sync + 'static,
    Ctx: Send + Sync + 'static,
    F: Fn(Arc<K>, Arc<Ctx>) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Action, E>> + Send + 'static,
    E: std::error::Error + Send + 'static,
{
    let context = Arc::new(context);
    Box::new(move |object: &Erased| {
        reconcile(object.downcast::<K>(), context.clone())
            .map_err(BoxedError::new)
            .boxed()
    })
}

/// The objects of `events` (the watch of a controller's kind), filling the cache of `core`'s
/// loop through `writer` and queueing each change.
pub(crate) fn cached_changes(
    core: Arc<Core>,
    events: BoxStream<'static, Result<Event<Erased>, watcher::Error>>,
    writer: Writer<Erased>,
) -> BoxStream<'static, Result<Erased, watcher::Error>> {
    events
        .reflect(writer)
        .inspect_ok(move |event| core.own_event(event))
        .touched_objects()
        .boxed()
}

/// Runs the controller of `core` until the manager shuts down: `changes` (from
/// [`cached_changes`]) and the children's watches keep the caches current, and the objects are
/// picked from the priority queue: changes before what an initial list or a resync brings,
/// without starving either ([`crate::Priority`]).
///
/// Boxed, so that the loop is compiled here: an operator crate that awaited this crate's future
/// itself would compile its code again.
pub(crate) fn run(
    core: Arc<Core>,
    changes: BoxStream<'static, Result<Erased, watcher::Error>>,
    reconcile: ErasedReconcile,
) -> BoxFuture<'static, ()> {
    run_to_the_end(core, changes, reconcile).boxed()
}

async fn run_to_the_end(
    core: Arc<Core>,
    changes: BoxStream<'static, Result<Erased, watcher::Error>>,
    reconcile: ErasedReconcile,
) {
    let store = core.erased_store.clone();
    let options = core.manager.options();
    let dispatcher = Dispatcher::new(usize::from(options.max_concurrent_reconciles));
    if core.dispatcher.set(dispatcher.clone()).is_err() {
        unreachable!("the watch of a kit's own kind starts once");
    }
    core.metrics.queue.prioritize();
    // The watch fills the cache and queues what it sees; the dispatcher alone triggers.
    let watch_only = changes.try_filter(|_| std::future::ready(false));
    let mut controller =
        super::controller_over(&core, watch_only, store.clone(), core.kind.clone())
            .reconcile_on(dispatcher.handed_over());
    if let Some(period) = options.sync_period {
        let resynced = core.clone();
        controller = controller.reconcile_on(super::resyncs(period).filter_map(move |()| {
            resynced.resynced();
            std::future::ready(None)
        }));
    }
    for owners in core.take_owner_triggers() {
        controller = controller.reconcile_on(owners);
    }
    let reconcile = move |object: Arc<Erased>, _: Arc<()>| reconcile(&object);
    let results = controller.run(
        super::wrap_reconcile(core.clone(), reconcile),
        super::error_policy(core.clone(), store, core.kind.clone()),
        Arc::new(()),
    );
    super::drive(&core, results).await;
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::runtime::reflector::ObjectRef;

    use super::*;

    fn config_map(name: &str) -> ConfigMap {
        let mut object = ConfigMap::default();
        object.metadata.name = Some(name.to_owned());
        object.metadata.namespace = Some("ns".to_owned());
        object
    }

    #[test]
    fn an_erased_object_is_the_object_it_was_made_of() {
        let erased = Erased::new(config_map("a"));
        assert_eq!(Resource::meta(&erased).name.as_deref(), Some("a"));
        let shared = erased.clone();
        assert!(Arc::ptr_eq(
            &erased.downcast::<ConfigMap>(),
            &shared.downcast()
        ));
        assert_eq!(format!("{erased:?}"), format!("{:?}", config_map("a")));
    }

    #[test]
    fn a_shared_object_is_copied_before_its_metadata_changes() {
        let mut erased = Erased::new(config_map("a"));
        let kept = erased.clone();
        Resource::meta_mut(&mut erased).name = Some("b".to_owned());
        assert_eq!(Resource::meta(&kept).name.as_deref(), Some("a"));
        assert_eq!(
            erased.downcast::<ConfigMap>().metadata.name.as_deref(),
            Some("b")
        );
    }

    #[test]
    fn references_name_the_kind_and_are_equal_within_one_controller() {
        let (kind, other) = (ErasedKind::of::<ConfigMap>(), ErasedKind::of::<ConfigMap>());
        let object = Erased::new(config_map("a"));
        let reference = ObjectRef::from_obj_with(&object, kind.clone());
        assert_eq!(
            reference,
            ObjectRef::new_with("a", kind.clone()).within("ns")
        );
        assert_ne!(reference, ObjectRef::new_with("a", other).within("ns"));
        assert_eq!(
            reference.to_string(),
            ObjectRef::<ConfigMap>::new("a").within("ns").to_string()
        );
        assert_eq!(Erased::api_version(&kind), "v1");
    }

    #[test]
    fn a_boxed_error_reads_as_the_original() {
        let original = std::io::Error::other("the API server is gone");
        let boxed = BoxedError::new(original);
        assert_eq!(boxed.to_string(), "the API server is gone");
        let not_deserialized = serde_json::from_str::<Erased>("{}").unwrap_err();
        assert!(not_deserialized.to_string().contains("never deserialized"));
    }
}
