//! How watch events become queued work: the controller's own objects at their priority, a
//! child's change as its controlling owner, a deletion out of the queue, a resync of everything.

use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher::Event;
use kube::{Resource, ResourceExt};

use super::super::dispatch::reference_key;
use super::super::priority_queue::Priority;
use super::Shared;

impl<K> Shared<K>
where
    K: Resource<DynamicType = ()> + Clone + Send + Sync + 'static,
{
    /// A watch event of the controller's own objects: an initial list queues at low priority,
    /// a change at normal priority, and a deletion takes the object out of the queue.
    pub(super) fn own_event(&self, event: &Event<K>) {
        match event {
            Event::InitApply(object) => self.queue(ObjectRef::from_obj(object), Priority::Low),
            Event::Apply(object) => self.queue(ObjectRef::from_obj(object), Priority::Normal),
            Event::Delete(object) => self.forget(&ObjectRef::from_obj(object)),
            Event::Init | Event::InitDone => {}
        }
    }

    /// A watch event of a child queues its controlling owner of kind `K`, at the priority
    /// [`Shared::own_event`] gives. An owner missing from the cache is not queued: it is gone,
    /// or its own event, still on its way, queues it.
    pub(crate) fn child_event<Child: Resource>(&self, event: &Event<Child>) {
        let (child, priority) = match event {
            Event::InitApply(child) => (child, Priority::Low),
            Event::Apply(child) | Event::Delete(child) => (child, Priority::Normal),
            Event::Init | Event::InitDone => return,
        };
        if let Some(owner) = owner_of(child)
            && self.store.get(&owner).is_some()
        {
            self.queue(owner, priority);
        }
    }

    /// Queues `object` at `priority`.
    pub(super) fn queue(&self, object: ObjectRef<K>, priority: Priority) {
        self.metrics.queue.add_at(&reference_key(&object), priority);
        if let Some(dispatcher) = self.dispatcher.get() {
            dispatcher.add(object, priority);
        }
    }

    /// `object` is deleted: nothing of it is reconciled, and its backoff is forgotten, so that
    /// an object of the same name starts afresh.
    pub(super) fn forget(&self, object: &ObjectRef<K>) {
        let key = reference_key(object);
        self.metrics.queue.remove(&key);
        if let Some(dispatcher) = self.dispatcher.get() {
            dispatcher.remove(object);
        }
        self.rate_limiter.forget(&key);
    }

    /// A resync queues every cached object, at low priority.
    pub(super) fn resynced(&self) {
        tracing::debug!(controller = self.name, "resync: reconciling every object");
        for object in self.store.state() {
            self.queue(ObjectRef::from_obj(&*object), Priority::Low);
        }
    }
}

/// The controlling owner of kind `K` of `child`, if it has one.
fn owner_of<K, Child>(child: &Child) -> Option<ObjectRef<K>>
where
    K: Resource<DynamicType = ()>,
    Child: Resource,
{
    let (kind, api_version) = (K::kind(&()), K::api_version(&()));
    let owner = child.owner_references().iter().find(|owner| {
        owner.controller == Some(true) && owner.kind == kind && owner.api_version == api_version
    })?;
    let mut object = ObjectRef::new(&owner.name);
    if let Some(namespace) = child.namespace() {
        object = object.within(&namespace);
    }
    Some(object)
}
