//! `/readyz`: a ping plus the started checks (the webhook server's), as controller-runtime's
//! readiness is. It never waits for caches: a replica that serves its own conversion webhook
//! lists its objects through that webhook, which the API server calls only on a ready endpoint;
//! a readiness that waited for the list would never come.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The started checks not yet passed, by name. Cheap to clone.
///
/// A replica waiting for the leader-election Lease is ready too: it is a healthy standby, and
/// Kubernetes would otherwise never finish rolling it out.
#[derive(Clone, Debug, Default)]
pub struct Readiness {
    pending: Arc<Mutex<BTreeMap<String, usize>>>,
}

impl Readiness {
    /// Keeps `/readyz` unready until the returned handle reports `name` started.
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

    /// The checks not passed yet; empty when ready.
    pub fn pending(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Whether every check has passed.
    pub fn is_ready(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, usize>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Reports one check passed. Cheap to clone; only the first report counts.
#[derive(Clone, Debug)]
pub struct Synced {
    readiness: Readiness,
    name: String,
    done: Arc<std::sync::atomic::AtomicBool>,
}

impl Synced {
    /// The check has passed.
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
    fn ready_once_every_check_has_passed_once() {
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
