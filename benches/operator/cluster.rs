//! What both reconcilers run against: a testkit API server with N WebApps, a stand-in for the
//! Deployment controller, and request counters on the reconciler's own client.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures::TryStreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Patch, PatchParams, PostParams};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client, ResourceExt};
use serde_json::json;
use webop::testkit::ApiServer;

use crate::webapp_operator_api::v1::{WebApp, WebAppPhase, WebAppSpec};

/// Requests one client sent: all of them, the writes (POST, PUT, PATCH, DELETE), and how many
/// of each kind (see [`kind_of`]).
#[derive(Debug, Default)]
pub struct Requests {
    total: AtomicU64,
    writes: AtomicU64,
    by_kind: Mutex<BTreeMap<&'static str, u64>>,
}

impl Requests {
    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    /// `list=3 watch=3 apply=2000 ...`, in name order.
    pub fn breakdown(&self) -> String {
        let by_kind = self.by_kind.lock().unwrap();
        let parts: Vec<String> = by_kind.iter().map(|(k, n)| format!("{k}={n}")).collect();
        parts.join(" ")
    }

    pub fn reset(&self) {
        self.total.store(0, Ordering::Relaxed);
        self.writes.store(0, Ordering::Relaxed);
        self.by_kind.lock().unwrap().clear();
    }
}

/// What a request does, in the terms of a reconcile: `list`, `watch`, `get`, `apply` (a child
/// created, updated or patched), `status` (a status write), `event`, or `other`.
fn kind_of<B>(request: &http::Request<B>) -> &'static str {
    let path = request.uri().path();
    let query = request.uri().query().unwrap_or_default();
    let is_event = path.contains("/events");
    match *request.method() {
        _ if is_event => "event",
        http::Method::GET if query.split('&').any(|p| p == "watch=true") => "watch",
        http::Method::GET if is_collection(path) => "list",
        http::Method::GET => "get",
        _ if path.ends_with("/status") => "status",
        http::Method::POST | http::Method::PUT | http::Method::PATCH => "apply",
        _ => "other",
    }
}

/// Whether `path` (`/api/v1/...` or `/apis/<group>/<version>/...`) names a collection: after
/// the version, a collection has an odd number of segments (`<plural>`,
/// `namespaces/<ns>/<plural>`), a named object an even one.
fn is_collection(path: &str) -> bool {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let rest = match segments.first() {
        Some(&"api") => &segments[2.min(segments.len())..],
        _ => &segments[3.min(segments.len())..],
    };
    rest.len() % 2 == 1
}

/// A tower service that counts the requests passing through it.
#[derive(Clone)]
pub struct Counted<S> {
    inner: S,
    requests: Arc<Requests>,
}

impl<S, B> tower::Service<http::Request<B>> for Counted<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> S::Future {
        self.requests.total.fetch_add(1, Ordering::Relaxed);
        if request.method() != http::Method::GET {
            self.requests.writes.fetch_add(1, Ordering::Relaxed);
        }
        *self
            .requests
            .by_kind
            .lock()
            .unwrap()
            .entry(kind_of(&request))
            .or_default() += 1;
        self.inner.call(request)
    }
}

/// A testkit server with the WebApp CRD.
pub fn server() -> ApiServer {
    let server = ApiServer::new();
    server
        .install_crd(WebApp::crd())
        .expect("the WebApp CRD installs");
    server
}

/// A client of `server` limited to client-go's 20 QPS (burst 30), counting into `requests`.
pub fn reconciler_client(server: &ApiServer, requests: Arc<Requests>) -> Client {
    use tower::Layer;
    let limited = webop::manager::RateLimitLayer::new(20.0, 30).layer(server.service());
    Client::new(
        Counted {
            inner: limited,
            requests,
        },
        "default",
    )
}

/// Creates `count` WebApps `app-0`, `app-1`, ... in `default`.
pub async fn create_webapps(client: &Client, count: usize) {
    let webapps = Api::<WebApp>::namespaced(client.clone(), "default");
    for index in 0..count {
        let spec = WebAppSpec {
            image: "nginx:1.25".to_owned(),
            replicas: 2,
            port: 8080,
            resources: None,
        };
        let webapp = WebApp::new(&format!("app-{index}"), spec);
        webapps
            .create(&PostParams::default(), &webapp)
            .await
            .expect("a valid WebApp");
    }
}

/// Changes every WebApp of `create_webapps` to ask for `replicas`, as a user rolling out a new
/// spec to all of them would.
pub async fn scale_webapps(client: &Client, count: usize, replicas: i32) {
    let webapps = Api::<WebApp>::namespaced(client.clone(), "default");
    let patch = json!({"spec": {"replicas": replicas}});
    for index in 0..count {
        webapps
            .patch(
                &format!("app-{index}"),
                &PatchParams::default(),
                &Patch::Merge(&patch),
            )
            .await
            .expect("a valid replica count");
    }
}

/// Plays the Deployment controller: every Deployment that appears or changes becomes fully
/// available (observedGeneration, updated and available replicas), once.
pub async fn simulate_deployment_controller(client: Client) {
    let deployments = Api::<Deployment>::all(client.clone());
    let _ = watcher(deployments, watcher::Config::default())
        .default_backoff()
        .applied_objects()
        .try_for_each(|deployment| {
            let client = client.clone();
            async move {
                let replicas = deployment.spec.replicas.unwrap_or(1);
                let generation = deployment.metadata.generation;
                let status = deployment.status.clone().unwrap_or_default();
                let ready = status.observed_generation == generation
                    && status.available_replicas == Some(replicas)
                    && status.updated_replicas == Some(replicas);
                if !ready {
                    let namespace = deployment.namespace().unwrap_or_default();
                    let api = Api::<Deployment>::namespaced(client, &namespace);
                    let patch = json!({"status": {
                        "observedGeneration": generation, "replicas": replicas,
                        "updatedReplicas": replicas, "readyReplicas": replicas,
                        "availableReplicas": replicas,
                    }});
                    let params = PatchParams::default();
                    let _ = api
                        .patch_status(&deployment.name_any(), &params, &Patch::Merge(&patch))
                        .await;
                }
                Ok(())
            }
        })
        .await;
}

/// How many WebApps are Running with all their replicas, counted from a watch of them: asking by
/// a list every second would cost the bench O(objects × seconds), which at 10,000 WebApps
/// outweighs what it measures.
pub struct Running {
    webapps: Store<WebApp>,
}

impl Running {
    /// Starts watching the WebApps of `default` through `client` (the driver's, not counted).
    pub fn watch(client: &Client) -> Self {
        let (webapps, writer) = reflector::store();
        let api = Api::<WebApp>::namespaced(client.clone(), "default");
        let stream = watcher(api, watcher::Config::default())
            .default_backoff()
            .reflect(writer)
            .applied_objects();
        tokio::spawn(stream.try_for_each(|_| async { Ok(()) }));
        Self { webapps }
    }

    /// The WebApps Running now (as far as the watch has seen).
    pub fn count(&self) -> usize {
        self.count_where(|_| true)
    }

    /// The WebApps asking for `replicas` that run them all now.
    pub fn count_with_replicas(&self, replicas: i32) -> usize {
        self.count_where(|webapp| webapp.spec.replicas == replicas)
    }

    fn count_where(&self, wanted: impl Fn(&WebApp) -> bool) -> usize {
        self.webapps
            .state()
            .iter()
            .filter(|webapp| {
                wanted(webapp)
                    && webapp.status.as_ref().is_some_and(|s| {
                        s.phase == Some(WebAppPhase::Running)
                            && s.available_replicas == webapp.spec.replicas
                    })
            })
            .count()
    }
}
