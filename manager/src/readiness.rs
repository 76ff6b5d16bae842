//! `/readyz`: ready once every cache a running controller reads has synced.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The caches not yet synced, by name. Cheap to clone.
///
/// A replica waiting for the leader-election Lease has no cache to wait for and is ready: it is
/// a healthy standby, and Kubernetes would otherwise never finish rolling it out.
#[derive(Clone, Debug, Default)]
pub struct Readiness {
    pending: Arc<Mutex<BTreeMap<String, usize>>>,
}

impl Readiness {
    /// Marks the cache `name` unready until the returned handle reports its first full list.
    ///
    /// The handle is fed from the cache's own event stream: kube-runtime's
    /// `Store::wait_until_ready` wakes only one waiter, and the `Controller` itself is one, so a
    /// second waiter could sleep forever.
    pub fn track(&self, name: impl Into<String>) -> Synced {
        let name = name.into();
        *self.lock().entry(name.clone()).or_default() += 1;
        Synced {
            readiness: self.clone(),
            name,
            done: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        }
    }

    fn synced(&self, name: &str) {
        let mut pending = self.lock();
        if let Some(count) = pending.get_mut(name) {
            *count -= 1;
            if *count == 0 {
                pending.remove(name);
            }
        }
    }

    /// The caches still syncing; empty when ready.
    pub fn pending(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Whether every tracked cache has synced.
    pub fn is_ready(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, usize>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Reports one tracked cache synced. Cheap to clone; only the first report counts (a re-list
/// after a dropped watch does not make the cache unready).
#[derive(Clone, Debug)]
pub struct Synced {
    readiness: Readiness,
    name: String,
    done: Arc<std::sync::atomic::AtomicBool>,
}

impl Synced {
    /// The cache has received its first full list.
    pub fn mark(&self) {
        if !self.done.swap(true, std::sync::atomic::Ordering::SeqCst) {
            self.readiness.synced(&self.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_once_every_tracked_cache_has_synced_once() {
        let readiness = Readiness::default();
        let (a, b) = (readiness.track("a"), readiness.track("b"));
        assert_eq!(readiness.pending(), ["a", "b"]);
        a.mark();
        a.mark();
        assert_eq!(readiness.pending(), ["b"]);
        b.mark();
        assert!(readiness.is_ready());
    }
}
