//! What the driver does to the cluster: N WebApps created, changed and deleted in a namespace of
//! their own, and a watch that tells how far the operator has brought them.

use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Namespace, Node, Pod, Service};
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client, Resource, ResourceExt};
use serde_json::json;
use tokio::time::Instant;

use crate::webapp_operator_api::v1::{WebApp, WebAppPhase, WebAppSpec};

/// Requests the driver has in flight at once: enough to create thousands of WebApps in
/// seconds, not enough to crowd out the operator under test (the API server's priority and
/// fairness also keeps them apart, by user).
const IN_FLIGHT: usize = 16;

/// Pods per kwok node: webop-envtest registers one with room for 5,000.
const PODS_PER_NODE: usize = 5000;

pub async fn create_namespace(client: &Client, name: &str) -> Result<(), kube::Error> {
    let namespace: Namespace =
        serde_json::from_value(json!({"metadata": {"name": name}})).expect("a valid Namespace");
    Api::<Namespace>::all(client.clone())
        .create(&PostParams::default(), &namespace)
        .await
        .map(drop)
}

/// Registers more kwok nodes (as webop-envtest registers its one) until `pods` fit.
pub async fn add_nodes_for(client: &Client, pods: usize) -> Result<(), kube::Error> {
    let api = Api::<Node>::all(client.clone());
    for index in 1..pods.div_ceil(PODS_PER_NODE) {
        let name = format!("peer-kwok-node-{index}");
        let capacity = json!({"cpu": "64", "memory": "256Gi", "pods": PODS_PER_NODE.to_string()});
        let node: Node = serde_json::from_value(json!({
            "metadata": {
                "name": name,
                "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
                "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                    "kubernetes.io/arch": "amd64", "type": "kwok"},
            },
            "status": {"allocatable": capacity, "capacity": capacity},
        }))
        .expect("a valid Node");
        api.create(&PostParams::default(), &node).await?;
    }
    Ok(())
}

pub fn new_webapp(name: &str) -> WebApp {
    let spec = WebAppSpec {
        image: "nginxinc/nginx-unprivileged:1.27".to_owned(),
        replicas: 1,
        port: 8080,
        resources: None,
    };
    WebApp::new(name, spec)
}

/// Creates the WebApps `names`.
pub async fn create(api: &Api<WebApp>, names: &[String]) -> Result<(), kube::Error> {
    futures::stream::iter(names)
        .map(|name| async move { api.create(&PostParams::default(), &new_webapp(name)).await })
        .buffer_unordered(IN_FLIGHT)
        .try_for_each(|_| async { Ok(()) })
        .await
}

/// Sets `replicas` in the spec of every WebApp of `names`.
pub async fn scale(api: &Api<WebApp>, names: &[String], replicas: i32) -> Result<(), kube::Error> {
    let patch = json!({"spec": {"replicas": replicas}});
    let patch = &Patch::Merge(&patch);
    futures::stream::iter(names)
        .map(|name| async move { api.patch(name, &PatchParams::default(), patch).await })
        .buffer_unordered(IN_FLIGHT)
        .try_for_each(|_| async { Ok(()) })
        .await
}

/// Deletes every WebApp of the namespace; the garbage collector deletes their children.
///
/// A deletecollection of thousands can outlive the API server's request timeout, which closes
/// the connection while the deletion goes on (seen at 10,000): it is asked again, for what is
/// left, until it answers.
pub async fn delete_all(api: &Api<WebApp>) -> Result<(), kube::Error> {
    let mut attempts = 0;
    loop {
        let deleted = api
            .delete_collection(&DeleteParams::background(), &ListParams::default())
            .await;
        match deleted {
            Ok(_) => return Ok(()),
            Err(error) if attempts < 10 => {
                attempts += 1;
                eprintln!("peer bench: deleting the rest again after: {error}");
                tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            }
            Err(error) => return Err(error),
        }
    }
}

/// The WebApps of one namespace, as a watch of the driver's sees them: polling lists would cost
/// the API server O(objects) a second, on the machine whose time is measured.
pub struct Progress {
    webapps: Store<WebApp>,
}

impl Progress {
    pub async fn watch(api: Api<WebApp>) -> Self {
        let (webapps, writer) = reflector::store();
        let stream = watcher(api, watcher::Config::default())
            .default_backoff()
            .reflect(writer)
            .applied_objects();
        tokio::spawn(stream.try_for_each(|_| async { Ok(()) }));
        let _ = webapps.wait_until_ready().await;
        Self { webapps }
    }

    /// WebApps that are Running with every replica of their current spec available.
    pub fn converged(&self) -> usize {
        let state = self.webapps.state();
        state.iter().filter(|webapp| converged(webapp)).count()
    }

    /// WebApps with a status: the operator has reconciled them at least once.
    pub fn reconciled(&self) -> usize {
        let state = self.webapps.state();
        state.iter().filter(|w| has_status(w)).count()
    }

    /// Whether the WebApp `name` has a status yet.
    pub fn has_reconciled(&self, name: &str) -> bool {
        let state = self.webapps.state();
        state.iter().any(|w| w.name_any() == name && has_status(w))
    }
}

fn has_status(webapp: &WebApp) -> bool {
    webapp.status.as_ref().is_some_and(|s| s.phase.is_some())
}

/// Running, every replica available, and the conditions are of the current generation (so a
/// changed spec is not counted as converged on its old status).
fn converged(webapp: &WebApp) -> bool {
    let generation = webapp.meta().generation;
    webapp.status.as_ref().is_some_and(|s| {
        s.phase == Some(WebAppPhase::Running)
            && s.available_replicas == webapp.spec.replicas
            && s.conditions
                .iter()
                .any(|c| c.type_ == "Available" && c.observed_generation == generation)
    })
}

/// Whether the namespace holds no WebApp, Deployment, Service or Pod any more.
pub async fn is_empty(client: &Client, namespace: &str) -> Result<bool, kube::Error> {
    let one = ListParams::default().limit(1);
    let (webapps, deployments, services, pods) = (
        Api::<WebApp>::namespaced(client.clone(), namespace),
        Api::<Deployment>::namespaced(client.clone(), namespace),
        Api::<Service>::namespaced(client.clone(), namespace),
        Api::<Pod>::namespaced(client.clone(), namespace),
    );
    let (webapps, deployments, services, pods) = (
        webapps.list_metadata(&one),
        deployments.list_metadata(&one),
        services.list_metadata(&one),
        pods.list_metadata(&one),
    );
    let (w, d, s, p) = tokio::try_join!(webapps, deployments, services, pods)?;
    Ok(w.items.is_empty() && d.items.is_empty() && s.items.is_empty() && p.items.is_empty())
}

/// Polls `done` every `every` until it holds or `limit` has passed; returns how long it took,
/// or `None` at the limit.
pub async fn wait_until(
    limit: Duration,
    every: Duration,
    mut done: impl AsyncFnMut() -> bool,
) -> Option<Duration> {
    let started = Instant::now();
    loop {
        if done().await {
            return Some(started.elapsed());
        }
        if started.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(every).await;
    }
}
