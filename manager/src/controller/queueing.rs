//! How watch events become queued work: the controller's own objects at their priority, a
//! child's change as its controlling owner, a deletion out of the queue, a resync of everything.

use futures::stream::BoxStream;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher::Event;
use kube::{Resource, ResourceExt};

use super::super::dispatch::reference_key;
use super::super::priority_queue::Priority;
use super::{Core, Erased, Shared};

impl Core {
    /// The reference to the object `name` (in `namespace`) of the controller's kind.
    fn reference(&self, name: &str, namespace: Option<&str>) -> ObjectRef<Erased> {
        let object = ObjectRef::new_with(name, self.kind.clone());
        match namespace {
            Some(namespace) => object.within(namespace),
            None => object,
        }
    }

    fn reference_to<O: Resource>(&self, object: &O) -> ObjectRef<Erased> {
        self.reference(&object.name_any(), object.meta().namespace.as_deref())
    }

    /// A watch event of the controller's own objects: an initial list queues at low priority,
    /// a change at normal priority, and a deletion takes the object out of the queue.
    pub(super) fn own_event<O: Resource>(&self, event: &Event<O>) {
        match event {
            Event::InitApply(object) => self.queue(self.reference_to(object), Priority::Low),
            Event::Apply(object) => self.queue(self.reference_to(object), Priority::Normal),
            Event::Delete(object) => self.forget(&self.reference_to(object)),
            Event::Init | Event::InitDone => {}
        }
    }

    /// Queues `object` at `priority`.
    fn queue(&self, object: ObjectRef<Erased>, priority: Priority) {
        self.metrics.queue.add_at(&reference_key(&object), priority);
        if let Some(dispatcher) = self.dispatcher.get() {
            dispatcher.add(object, priority);
        }
    }

    /// `object` is deleted: nothing of it is reconciled, and its backoff is forgotten, so that
    /// an object of the same name starts afresh.
    fn forget(&self, object: &ObjectRef<Erased>) {
        let key = reference_key(object);
        self.metrics.queue.remove(&key);
        if let Some(dispatcher) = self.dispatcher.get() {
            dispatcher.remove(object);
        }
        self.rate_limiter.forget(&key);
    }

    /// A resync queues every object of [`super::ControllerKit::run`]'s cache, at low priority.
    pub(super) fn resynced(&self) {
        self.resync(self.erased_store.state());
    }

    /// A resync queues each of `objects` (a cache's), at low priority.
    fn resync<O: Resource>(&self, objects: Vec<std::sync::Arc<O>>) {
        tracing::debug!(controller = self.name, "resync: reconciling every object");
        for object in objects {
            self.queue(self.reference_to(&*object), Priority::Low);
        }
    }

    /// Adds the watch of a child's cache to those the controller polls.
    pub(crate) fn add_owner_trigger(&self, watch: BoxStream<'static, ObjectRef<Erased>>) {
        self.owner_triggers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(watch);
    }

    /// The watches of the children's caches, for the controller to poll.
    pub(super) fn take_owner_triggers(&self) -> Vec<BoxStream<'static, ObjectRef<Erased>>> {
        std::mem::take(
            &mut *self
                .owner_triggers
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        )
    }

    /// The controlling owner of the controller's kind of `child`, if it has one.
    fn owner_of<Child: Resource>(&self, child: &Child) -> Option<ObjectRef<Erased>> {
        let (kind, api_version) = (Erased::kind(&self.kind), Erased::api_version(&self.kind));
        let owner = child.owner_references().iter().find(|owner| {
            owner.controller == Some(true) && owner.kind == kind && owner.api_version == api_version
        })?;
        Some(self.reference(&owner.name, child.meta().namespace.as_deref()))
    }
}

impl<K> Shared<K>
where
    K: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    /// A watch event of a child queues its controlling owner of kind `K`, at the priority
    /// [`Core::own_event`] gives. An owner missing from the cache is not queued: it is gone,
    /// or its own event, still on its way, queues it.
    pub(crate) fn child_event<Child: Resource>(&self, event: &Event<Child>) {
        let (child, priority) = match event {
            Event::InitApply(child) => (child, Priority::Low),
            Event::Apply(child) | Event::Delete(child) => (child, Priority::Normal),
            Event::Init | Event::InitDone => return,
        };
        let core = &self.core;
        if let Some(owner) = core.owner_of(child)
            && self.is_cached(&owner)
        {
            core.queue(owner, priority);
        }
    }

    /// Whether `owner` is in the cache of this kit's controller (whichever fills one).
    fn is_cached(&self, owner: &ObjectRef<Erased>) -> bool {
        if self.core.erased_store.get(owner).is_some() {
            return true;
        }
        let mut typed = ObjectRef::<K>::new(&owner.name);
        typed.namespace.clone_from(&owner.namespace);
        self.store.get(&typed).is_some()
    }

    /// A resync of [`super::ControllerKit::build`]'s controller queues every cached object, at
    /// low priority.
    pub(super) fn resynced(&self) {
        tracing::debug!(
            controller = self.core.name,
            "resync: reconciling every object"
        );
        for object in self.store.state() {
            self.core
                .queue(self.core.reference_to(&*object), Priority::Low);
        }
    }
}
