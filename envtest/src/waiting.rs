//! What a test of a controller does with objects: create and patch them, wait until a condition
//! holds or until they are gone, read the events about them.

use std::fmt::Debug;
use std::time::Duration;

use k8s_openapi::NamespaceResourceScope;
use kube::runtime::wait::{Condition, await_condition, conditions};
use kube::{Api, Resource};
use serde::de::DeserializeOwned;

use super::Environment;

/// How long a wait may take before the test fails (simulated time on a paused testkit clock).
pub const PATIENCE: Duration = Duration::from_secs(60);

impl Environment {
    /// An `Api` of `K` in the namespace `default`, with the admin client.
    pub fn api<K>(&self) -> Api<K>
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>,
    {
        Api::namespaced(self.client(), "default")
    }

    /// Waits until the object `name` of `K` in `default` satisfies `condition`, and returns it.
    ///
    /// # Panics
    /// When it does not within [`PATIENCE`], or is deleted.
    pub async fn until<K>(&self, name: &str, condition: impl Condition<K>) -> K
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned
            + Send
            + 'static,
    {
        let object = self.wait(name, condition).await;
        object.unwrap_or_else(|| panic!("{} {name} was deleted", K::kind(&())))
    }

    /// Waits until the object `name` of `K` in `default` with `uid` is gone.
    ///
    /// # Panics
    /// When it is not within [`PATIENCE`].
    pub async fn deleted<K>(&self, name: &str, uid: &str)
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned
            + Send
            + 'static,
    {
        self.wait::<K>(name, conditions::is_deleted(uid)).await;
    }

    /// Waits until the object `name` of `K` satisfies `condition`; returns it if it exists.
    async fn wait<K>(&self, name: &str, condition: impl Condition<K>) -> Option<K>
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned
            + Send
            + 'static,
    {
        let waiting = await_condition(self.api::<K>(), name, condition);
        tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("{} {name}: condition not met in time", K::kind(&())))
            .unwrap_or_else(|error| panic!("{} {name}: {error}", K::kind(&())))
    }

    /// Creates `object` in `default` with the admin client.
    ///
    /// # Panics
    /// When the API server refuses it.
    pub async fn create<K>(&self, object: &K) -> K
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned
            + serde::Serialize,
    {
        let params = kube::api::PostParams::default();
        let created = self.api::<K>().create(&params, object).await;
        created.unwrap_or_else(|error| panic!("cannot create a {}: {error}", K::kind(&())))
    }

    /// Applies the JSON merge patch `patch` to the object `name` of `K` in `default`, as
    /// `kubectl patch --type merge` does, and returns the object.
    ///
    /// # Panics
    /// When the API server refuses it.
    pub async fn merge_patch<K>(&self, name: &str, patch: serde_json::Value) -> K
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned,
    {
        let (params, patch) = (
            kube::api::PatchParams::default(),
            kube::api::Patch::Merge(&patch),
        );
        let patched = self.api::<K>().patch(name, &params, &patch).await;
        patched.unwrap_or_else(|error| panic!("cannot patch {} {name}: {error}", K::kind(&())))
    }

    /// Deletes the object `name` of `K` in `default` as `kubectl delete` does (its dependents
    /// are left to the garbage collector), without waiting for it to be gone ([`Self::deleted`]
    /// waits).
    ///
    /// # Panics
    /// When the API server refuses it.
    pub async fn delete<K>(&self, name: &str)
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned,
    {
        let deleted = self.api::<K>().delete(name, &Default::default()).await;
        deleted.unwrap_or_else(|error| panic!("cannot delete {} {name}: {error}", K::kind(&())));
    }

    /// The notes of the events of `type_` (`Normal`, `Warning`) in `default` about objects of
    /// kind `kind`.
    ///
    /// # Panics
    /// When events cannot be listed.
    pub async fn event_notes(&self, kind: &str, type_: &str) -> Vec<String> {
        use k8s_openapi::api::events::v1::Event;
        let events = self.api::<Event>().list(&Default::default()).await.unwrap();
        let about = |e: &Event| e.regarding.as_ref().and_then(|r| r.kind.as_deref()) == Some(kind);
        let events = events.items.into_iter();
        let events = events.filter(|e| about(e) && e.type_.as_deref() == Some(type_));
        events.filter_map(|e| e.note).collect()
    }

    /// Whether the object `name` of `K` exists in `default`.
    ///
    /// # Panics
    /// When it cannot be read.
    pub async fn exists<K>(&self, name: &str) -> bool
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + Debug
            + DeserializeOwned,
    {
        let found = self.api::<K>().get_opt(name).await;
        found
            .unwrap_or_else(|error| panic!("{} {name}: {error}", K::kind(&())))
            .is_some()
    }
}

/// A condition that holds when the object exists.
pub fn exists<K>() -> impl Condition<K> {
    |object: Option<&K>| object.is_some()
}
