//! Waiting for objects, as a test of a controller does: until a condition holds, until gone.

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
        let waiting = await_condition(self.api::<K>(), name, condition);
        let object = tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("{} {name}: condition not met in time", K::kind(&())))
            .unwrap_or_else(|error| panic!("{} {name}: {error}", K::kind(&())));
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
        let waiting = await_condition(self.api::<K>(), name, conditions::is_deleted(uid));
        tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("{} {name} still exists", K::kind(&())))
            .unwrap_or_else(|error| panic!("{} {name}: {error}", K::kind(&())));
    }
}

/// A condition that holds when the object exists.
pub fn exists<K>() -> impl Condition<K> {
    |object: Option<&K>| object.is_some()
}
