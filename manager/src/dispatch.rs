//! [`Dispatcher`]: the work queue in front of kube-runtime's runner, in priority order.
//!
//! kube-runtime's scheduler takes every request as it comes and runs them in arrival order, so
//! an object created while the initial list of thousands is being worked waits for all of them.
//! The dispatcher holds the queued objects itself ([`PriorityQueue`]) and hands kube-runtime at
//! most as many as it can start (`--max-concurrent-reconciles`): what waits, waits here, where a
//! change goes first. kube-runtime keeps what it does well: one reconcile per object at a time,
//! the bounded concurrency, the retries it schedules itself.

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

use futures::Stream;
use kube::Resource;
use kube::runtime::reflector::ObjectRef;
use tokio::sync::Notify;

use super::priority_queue::{Priority, PriorityQueue};

/// Cheap to clone; every clone is the same queue.
pub(crate) struct Dispatcher<K>
where
    K: Resource<DynamicType: Eq + Hash + Clone> + 'static,
{
    inner: Arc<Inner<K>>,
}

impl<K> Clone for Dispatcher<K>
where
    K: Resource<DynamicType: Eq + Hash + Clone> + 'static,
{
    fn clone(&self) -> Self {
        Dispatcher {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<K>
where
    K: Resource<DynamicType: Eq + Hash + Clone> + 'static,
{
    state: Mutex<State<K>>,
    /// Woken when an item is queued or a handed-over one starts.
    wakeup: Notify,
    /// How many handed-over items may wait in kube-runtime's scheduler at once.
    capacity: usize,
}

struct State<K>
where
    K: Resource<DynamicType: Eq + Hash + Clone> + 'static,
{
    queue: PriorityQueue<ObjectRef<K>>,
    /// Handed to kube-runtime and not yet started, by `namespace/name`.
    handed_over: HashSet<String>,
}

impl<K> Dispatcher<K>
where
    K: Resource<DynamicType: Eq + Hash + Clone + Send> + Clone + Send + Sync + 'static,
{
    /// A dispatcher for a runner of `concurrency` reconciles.
    ///
    /// Objects are handed over before kube-runtime's cache is ready (its runner waits for it),
    /// and an object deleted after its hand-over is found missing there (`ControllerKit::drive`
    /// then frees its place): the dispatcher does not wait on the cache itself, as a second
    /// waiter for its readiness may never be woken (kube-runtime 5's `DelayedInit` keeps one
    /// waker).
    pub(crate) fn new(concurrency: usize) -> Self {
        Dispatcher {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    queue: PriorityQueue::default(),
                    handed_over: HashSet::new(),
                }),
                wakeup: Notify::new(),
                capacity: concurrency.max(1),
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State<K>> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `object` at `priority` (raising it if it waits at a lower one).
    pub(crate) fn add(&self, object: ObjectRef<K>, priority: Priority) {
        self.state().queue.add(object, priority);
        self.inner.wakeup.notify_one();
    }

    /// `object` is gone: it is not reconciled.
    pub(crate) fn remove(&self, object: &ObjectRef<K>) {
        self.state().queue.remove(object);
    }

    /// The reconcile of the object `key` (`namespace/name`) starts, or kube-runtime found it
    /// gone: its place in the scheduler is free for the next one.
    pub(crate) fn started(&self, key: &str) {
        if self.state().handed_over.remove(key) {
            self.inner.wakeup.notify_one();
        }
    }

    /// The objects to reconcile, in priority order, each handed over once kube-runtime's
    /// scheduler has room: give it to `Controller::reconcile_on`.
    pub(crate) fn handed_over(&self) -> impl Stream<Item = ObjectRef<K>> + Send + 'static {
        futures::stream::unfold(self.clone(), |dispatcher| async move {
            loop {
                if let Some(object) = dispatcher.next() {
                    return Some((object, dispatcher));
                }
                // A wakeup between the check and this wait is kept (`notify_one` stores a
                // permit when nobody waits), so none is lost.
                dispatcher.inner.wakeup.notified().await;
            }
        })
    }

    /// The next object to hand over, if there is room for one.
    fn next(&self) -> Option<ObjectRef<K>> {
        let mut state = self.state();
        if state.handed_over.len() >= self.inner.capacity {
            return None;
        }
        let (object, _) = state.queue.pop()?;
        state.handed_over.insert(reference_key(&object));
        Some(object)
    }
}

/// `namespace/name` of a reference, as [`crate::object_key`] names objects.
pub(crate) fn reference_key<K: Resource>(object: &ObjectRef<K>) -> String {
    match &object.namespace {
        Some(namespace) => format!("{namespace}/{}", object.name),
        None => object.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures::StreamExt;
    use k8s_openapi::api::core::v1::ConfigMap;

    use super::*;

    fn reference(name: &str) -> ObjectRef<ConfigMap> {
        ObjectRef::new(name).within("ns")
    }

    #[tokio::test(start_paused = true)]
    async fn hands_over_no_more_than_the_runner_can_start_in_priority_order() {
        let dispatcher = Dispatcher::<ConfigMap>::new(1);
        dispatcher.add(reference("listed-a"), Priority::Low);
        dispatcher.add(reference("listed-b"), Priority::Low);
        dispatcher.add(reference("deleted"), Priority::Normal);
        dispatcher.remove(&reference("deleted"));
        let mut handed_over = Box::pin(dispatcher.handed_over());

        assert_eq!(handed_over.next().await, Some(reference("listed-a")));
        // Nothing more until listed-a starts; meanwhile a change arrives and goes first.
        let waited = tokio::time::timeout(Duration::from_secs(60), handed_over.next()).await;
        assert!(waited.is_err(), "handed over before listed-a started");
        dispatcher.add(reference("new"), Priority::Normal);
        dispatcher.started("ns/listed-a");
        assert_eq!(handed_over.next().await, Some(reference("new")));
        dispatcher.started("ns/new");
        assert_eq!(handed_over.next().await, Some(reference("listed-b")));
        dispatcher.started("ns/listed-b");
        let waited = tokio::time::timeout(Duration::from_secs(60), handed_over.next()).await;
        assert!(waited.is_err(), "the deleted object was handed over");
    }
}
