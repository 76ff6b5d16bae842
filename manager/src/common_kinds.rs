//! The child-side code of the kinds operators most often own, compiled once, here.
//!
//! Watching a child, caching it and applying it is generic over its kind, so each operator crate
//! would compile it for its Deployments and Services itself: kube's watch and request code and
//! serde's JSON for the whole `PodSpec` tree, about four fifths of the generated WebApp
//! operator's machine code. And it would compile it again for its unit-test harness. A build
//! that does not optimize shares generic instances between crates (rustc's share-generics): a
//! crate uses the instance a dependency compiled rather than its own. So this module compiles,
//! for each kind below, what
//! [`ControllerKit::owns_compact`](crate::ControllerKit::owns_compact), [`CompactStore`] and
//! [`Children::apply`] run for it, and operators reuse it (the generated WebApp operator's
//! library: 750,000 lines of LLVM IR → 124,000, built in 2.4 s instead of 4.9).
//!
//! Only in builds with debug assertions (the dev and test profiles): an optimized build shares
//! no instances, so the code here would be compiled for nothing.

use futures::StreamExt;
use futures::future::BoxFuture;
use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::apps::v1::{Deployment, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Secret, Service};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Api, Client, Resource};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::CompactStore;
use crate::owned::child_events;
use crate::reconcile::{Children, Controller};

/// What an operator runs for children of each common kind, as futures that are never polled:
/// their types are what makes the compiler build the code. Not for use.
#[doc(hidden)]
pub fn compiled(client: Client, children: Children) -> Vec<BoxFuture<'static, ()>> {
    vec![
        child_code::<Deployment>(client.clone(), children.clone()),
        child_code::<StatefulSet>(client.clone(), children.clone()),
        child_code::<Job>(client.clone(), children.clone()),
        child_code::<Service>(client.clone(), children.clone()),
        child_code::<ConfigMap>(client.clone(), children.clone()),
        child_code::<Secret>(client, children),
    ]
}

/// A child's watch, cache and apply, for `K`.
fn child_code<K>(client: Client, children: Children) -> BoxFuture<'static, ()>
where
    K: Resource<DynamicType = (), Scope = NamespaceResourceScope>
        + Clone
        + Default
        + std::fmt::Debug
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static,
{
    Box::pin(async move {
        let store = CompactStore::<K>::default();
        let mut events = child_events(Api::<K>::all(client), watcher::Config::default());
        if let Some(Ok(event)) = events.next().await {
            store.apply_event(&event);
        }
        let cached = store.get(&ObjectRef::new(""));
        let controller = Controller {
            kind: String::new(),
            reference: OwnerReference::default(),
            namespace: String::new(),
        };
        let _ = children
            .apply_controlled(controller, K::default(), cached)
            .await;
    })
}
