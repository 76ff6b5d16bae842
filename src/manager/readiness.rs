//! `/readyz`: ready once every cache a running controller reads has synced.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use kube::runtime::reflector::Store;

/// The caches not yet synced, by name. Cheap to clone.
///
/// A replica waiting for the leader-election Lease has no cache to wait for and is ready: it is
/// a healthy standby, and Kubernetes would otherwise never finish rolling it out.
#[derive(Clone, Debug, Default)]
pub struct Readiness {
    pending: Arc<Mutex<BTreeMap<String, usize>>>,
}

impl Readiness {
    /// Marks `name` unready until `store` has received its first full list.
    pub fn track<K>(&self, name: impl Into<String>, store: Store<K>)
    where
        K: kube::Resource + Clone + Send + Sync + 'static,
        K::DynamicType: Eq + std::hash::Hash + Clone + Send + Sync,
    {
        let name = name.into();
        *self.lock().entry(name.clone()).or_default() += 1;
        let readiness = self.clone();
        tokio::spawn(async move {
            // An error means the writer was dropped: the controller stopped, nothing to wait for.
            let _ = store.wait_until_ready().await;
            readiness.synced(&name);
        });
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

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::runtime::{reflector, watcher};

    #[tokio::test]
    async fn ready_once_every_tracked_store_has_synced() {
        let readiness = Readiness::default();
        let (store, mut writer) = reflector::store::<ConfigMap>();
        readiness.track("configmaps", store);
        tokio::task::yield_now().await;
        assert_eq!(readiness.pending(), ["configmaps"]);
        writer.apply_watcher_event(&watcher::Event::Init);
        writer.apply_watcher_event(&watcher::Event::InitDone);
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
        assert!(readiness.is_ready(), "{:?}", readiness.pending());
    }
}
