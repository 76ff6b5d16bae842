//! [`CompactStore`]: a cache of watched objects kept as their JSON, for controllers that read a
//! few of them per reconcile and must hold many.
//!
//! A k8s-openapi struct spends memory on every field it could have: a Deployment with one
//! container takes about 7.7 KiB as a `Deployment` (most of it `None`s of `PodSpec`,
//! `Container` and `SecurityContext`), 1.3 KiB as its JSON. At 10,000 children that is the
//! difference between an operator of 60 MiB and one of 130 MiB. Reading an object back costs
//! one deserialization (microseconds), paid only by the reconcile that reads it.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, RwLock};

use kube::Resource;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::object_key;

/// The objects one watch has seen, by `namespace/name`, each as its JSON. Cheap to clone: the
/// clones share the objects. Filled by [`ControllerKit::owned_compact`](super::ControllerKit).
pub struct CompactStore<K> {
    shared: Arc<RwLock<Objects>>,
    kind: PhantomData<fn() -> K>,
}

#[derive(Default)]
struct Objects {
    current: HashMap<String, Box<[u8]>>,
    /// The objects of a (re)list in progress: they replace `current` when it completes, so
    /// that readers never see a half-listed cache and objects deleted meanwhile disappear.
    relisting: Option<HashMap<String, Box<[u8]>>>,
}

impl<K> Clone for CompactStore<K> {
    fn clone(&self) -> Self {
        CompactStore {
            shared: self.shared.clone(),
            kind: PhantomData,
        }
    }
}

impl<K> Default for CompactStore<K> {
    fn default() -> Self {
        CompactStore {
            shared: Arc::default(),
            kind: PhantomData,
        }
    }
}

impl<K> CompactStore<K>
where
    K: Resource + Serialize + DeserializeOwned,
{
    /// The cached object `object` names, as the last watch event left it.
    pub fn get(&self, object: &ObjectRef<K>) -> Option<K> {
        let key = match &object.namespace {
            Some(namespace) => format!("{namespace}/{}", object.name),
            None => object.name.clone(),
        };
        let objects = self.shared.read().unwrap_or_else(|e| e.into_inner());
        let json = objects.current.get(&key)?;
        // Written by `apply_event` from a `K`: it reads back unless `K`'s serde is asymmetric.
        serde_json::from_slice(json).ok()
    }

    /// How many objects are cached.
    pub fn len(&self) -> usize {
        self.shared
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .current
            .len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Applies a watch event, as kube-runtime's reflector does for its `Store`.
    pub(super) fn apply_event(&self, event: &watcher::Event<K>) {
        let mut objects = self.shared.write().unwrap_or_else(|e| e.into_inner());
        match event {
            watcher::Event::Apply(object) => {
                if let Ok(json) = serde_json::to_vec(object) {
                    objects.current.insert(object_key(object), json.into());
                }
            }
            watcher::Event::Delete(object) => {
                objects.current.remove(&object_key(object));
            }
            watcher::Event::Init => objects.relisting = Some(HashMap::new()),
            watcher::Event::InitApply(object) => {
                if let Ok(json) = serde_json::to_vec(object) {
                    let key = object_key(object);
                    let Objects { current, relisting } = &mut *objects;
                    relisting
                        .as_mut()
                        .unwrap_or(current)
                        .insert(key, json.into());
                }
            }
            watcher::Event::InitDone => {
                if let Some(listed) = objects.relisting.take() {
                    objects.current = listed;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::ObjectMeta;
    use kube::runtime::watcher::Event;

    use super::*;

    fn config_map(name: &str, value: &str) -> ConfigMap {
        ConfigMap {
            metadata: ObjectMeta {
                name: Some(name.to_owned()),
                namespace: Some("default".to_owned()),
                ..Default::default()
            },
            data: Some([("key".to_owned(), value.to_owned())].into()),
            ..Default::default()
        }
    }

    fn value(store: &CompactStore<ConfigMap>, name: &str) -> Option<String> {
        let object = ObjectRef::new(name).within("default");
        store.get(&object).map(|cm| cm.data.unwrap()["key"].clone())
    }

    #[test]
    fn an_object_reads_back_as_the_last_event_left_it_until_deleted() {
        let store = CompactStore::default();
        store.apply_event(&Event::Apply(config_map("a", "1")));
        store.apply_event(&Event::Apply(config_map("a", "2")));
        assert_eq!(value(&store, "a").as_deref(), Some("2"));
        assert_eq!(value(&store, "b"), None);
        assert_eq!(
            store.get(&ObjectRef::new("a").within("other")).map(|_| ()),
            None
        );
        store.apply_event(&Event::Delete(config_map("a", "2")));
        assert!(store.is_empty());
    }

    #[test]
    fn a_relist_replaces_the_cache_when_it_completes() {
        let store = CompactStore::default();
        store.apply_event(&Event::Apply(config_map("gone", "1")));
        store.apply_event(&Event::Apply(config_map("kept", "1")));
        store.apply_event(&Event::Init);
        store.apply_event(&Event::InitApply(config_map("kept", "2")));
        // Until the list completes, readers see the cache as it was.
        assert_eq!(value(&store, "gone").as_deref(), Some("1"));
        assert_eq!(value(&store, "kept").as_deref(), Some("1"));
        store.apply_event(&Event::InitDone);
        assert_eq!(value(&store, "gone"), None);
        assert_eq!(value(&store, "kept").as_deref(), Some("2"));
        assert_eq!(store.len(), 1);
    }
}
