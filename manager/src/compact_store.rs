//! [`CompactStore`]: a cache of watched objects kept as their compressed JSON, for controllers
//! that read a few of them per reconcile and must hold many.
//!
//! A k8s-openapi struct spends memory on every field it could have: a Deployment with one
//! container takes about 7.7 KiB as a `Deployment` (most of it `None`s of `PodSpec`,
//! `Container` and `SecurityContext`), 1.3 KiB as its JSON. At 10,000 children that is the
//! difference between an operator of 60 MiB and one of 130 MiB. Reading an object back costs
//! one deserialization (microseconds), paid only by the reconcile that reads it.
//!
//! The objects of one watch are alike: one kind, one controller's labels and fields, mostly the
//! same values. So each is kept LZ4-compressed with the first object the store kept as the
//! dictionary, which leaves little more than what sets it apart (its name, uid, versions and
//! times): a Deployment like the generated WebApp operator's is kept in 114 of its 2,416 bytes of
//! JSON (the unit test's). At 10,000 WebApps the generated operator's peak RSS on the testkit
//! (`cargo bench --bench operator`) went from 99 to 47 MiB.

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
    /// The JSON of the first object kept: every object is compressed against it. Set once, as
    /// every kept object needs the same one to read back.
    dictionary: Option<Box<[u8]>>,
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
        let compressed = objects.current.get(&key)?;
        let json = objects.decompress(compressed)?;
        drop(objects);
        // Written by `apply_event` from a `K`: it reads back unless `K`'s serde is asymmetric.
        serde_json::from_slice(&json).ok()
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
                if let Some(compressed) = objects.compress(object) {
                    objects.current.insert(object_key(object), compressed);
                }
            }
            watcher::Event::Delete(object) => {
                objects.current.remove(&object_key(object));
            }
            watcher::Event::Init => objects.relisting = Some(HashMap::new()),
            watcher::Event::InitApply(object) => {
                if let Some(compressed) = objects.compress(object) {
                    let key = object_key(object);
                    let Objects {
                        current, relisting, ..
                    } = &mut *objects;
                    relisting
                        .as_mut()
                        .unwrap_or(current)
                        .insert(key, compressed);
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

impl Objects {
    /// `object`'s JSON, compressed against the dictionary (which it becomes if it is the first).
    fn compress<K: Serialize>(&mut self, object: &K) -> Option<Box<[u8]>> {
        let json = serde_json::to_vec(object).ok()?;
        let dictionary = self
            .dictionary
            .get_or_insert_with(|| json.clone().into_boxed_slice());
        let compressed = lz4_flex::block::compress_prepend_size_with_dict(&json, dictionary);
        Some(compressed.into_boxed_slice())
    }

    fn decompress(&self, compressed: &[u8]) -> Option<Vec<u8>> {
        let dictionary = self.dictionary.as_deref()?;
        lz4_flex::block::decompress_size_prepended_with_dict(compressed, dictionary).ok()
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::apps::v1::Deployment;
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

    /// A child as the API server sends it: what the generated WebApp operator applies, with
    /// the defaults, the server-side apply entry and the status.
    fn deployment(index: usize) -> Deployment {
        let name = format!("app-{index}");
        serde_json::from_value(serde_json::json!({
            "metadata": {
                "name": format!("{name}-deploy"), "namespace": "default",
                "uid": format!("6f1c2a8e-0b7d-4c1e-9a53-{index:012}"),
                "resourceVersion": format!("{}", 100_000 + 7 * index), "generation": 2,
                "creationTimestamp": "2026-12-05T07:25:26Z",
                "labels": {"app.kubernetes.io/name": &name, "app.kubernetes.io/managed-by": "webapp-operator"},
                "annotations": {"deployment.kubernetes.io/revision": "1"},
                "ownerReferences": [{"apiVersion": "app.example.com/v1", "kind": "WebApp", "name": &name,
                    "uid": format!("0d4e7b6a-41f2-4b8e-8c1d-{index:012}"), "controller": true, "blockOwnerDeletion": true}],
                "managedFields": [{"manager": "webapp-operator", "operation": "Apply", "apiVersion": "apps/v1",
                    "time": "2026-12-05T07:25:26Z", "fieldsType": "FieldsV1", "fieldsV1": {
                        "f:metadata": {"f:labels": {"f:app.kubernetes.io/name": {}, "f:app.kubernetes.io/managed-by": {}},
                            "f:ownerReferences": {"k:{\"uid\":\"0d4e7b6a\"}": {}}},
                        "f:spec": {"f:replicas": {}, "f:selector": {}, "f:template": {"f:metadata": {"f:labels": {
                            "f:app.kubernetes.io/name": {}}}, "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {
                            ".": {}, "f:image": {}, "f:name": {}, "f:ports": {"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}": {
                            ".": {}, "f:containerPort": {}, "f:name": {}}}}}}}}}}]
            },
            "spec": {
                "replicas": 2, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                "selector": {"matchLabels": {"app.kubernetes.io/name": &name}},
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                "template": {
                    "metadata": {"labels": {"app.kubernetes.io/name": &name}},
                    "spec": {"containers": [{"name": "app", "image": "nginx:1.25", "imagePullPolicy": "IfNotPresent",
                        "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
                        "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                        "securityContext": {}, "schedulerName": "default-scheduler"}
                }
            },
            "status": {"observedGeneration": 2, "replicas": 2, "updatedReplicas": 2, "readyReplicas": 2,
                "availableReplicas": 2, "conditions": [
                {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                 "message": "Deployment has minimum availability.",
                 "lastUpdateTime": "2026-12-05T07:25:31Z", "lastTransitionTime": "2026-12-05T07:25:31Z"},
                {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                 "message": format!("ReplicaSet \"{name}-deploy-7d9f8b6c5\" has successfully progressed."),
                 "lastUpdateTime": "2026-12-05T07:25:31Z", "lastTransitionTime": "2026-12-05T07:25:26Z"}]}
        }))
        .unwrap()
    }

    #[test]
    fn objects_alike_are_kept_in_a_fraction_of_their_json() {
        let store = CompactStore::<Deployment>::default();
        let objects = 100;
        for index in 0..objects {
            store.apply_event(&Event::Apply(deployment(index)));
        }
        let kept: usize = {
            let objects = store.shared.read().unwrap();
            objects
                .current
                .values()
                .map(|compressed| compressed.len())
                .sum()
        };
        let json = serde_json::to_vec(&deployment(1)).unwrap().len() * objects;
        // Without the dictionary LZ4 keeps 58% (what repeats within one object).
        assert!(
            kept * 10 < json,
            "{kept} bytes kept of {json} bytes of JSON"
        );
        let read = store.get(&ObjectRef::new("app-42-deploy").within("default"));
        assert_eq!(read, Some(deployment(42)));
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
