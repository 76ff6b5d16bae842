//! An in-memory Kubernetes API server for offline tests: a `tower::Service` behind a real
//! [`kube::Client`], faithful enough that a kube-runtime `Controller` (watches, `owns`,
//! finalizers, status, events, server-side apply) runs against it unchanged in `cargo test`.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::{Api, ObjectMeta, PostParams};
//!
//! let server = webop_testkit::ApiServer::new();
//! let client: kube::Client = server.client();
//! let api: Api<ConfigMap> = Api::namespaced(client, "default");
//! let cm = ConfigMap { metadata: ObjectMeta { name: Some("settings".into()), ..Default::default() }, ..Default::default() };
//! let created = api.create(&PostParams::default(), &cm).await.unwrap();
//! assert!(created.metadata.uid.is_some());
//! assert_eq!(server.counters().get(webop_testkit::Verb::Create, "configmaps"), 1);
//! # }
//! ```
//!
//! Custom resources are served once their CRD is installed, with [`ApiServer::install_crd`] or
//! by creating the `CustomResourceDefinition` through the client. The CRD's schema then prunes,
//! defaults and validates every write (422 errors name the field, as Kubernetes does).
//!
//! See `docs/testkit.md` for what is faithful to a real API server and what is approximated.

#[cfg(feature = "webhook")]
mod admission;
mod body;
mod builtins;
mod change;
mod discovery;
mod faults;
mod field_error;
mod gc;
mod handlers;
mod link;
mod listener;
mod objects;
mod openapi;
mod patch;
mod request;
mod resources;
mod scale;
mod schema;
mod selectors;
mod service;
mod shape;
mod state;
mod status;
mod store;
mod table;
mod watches;
mod workloads;

use std::borrow::Borrow;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

pub use body::Body;
pub use faults::{Counters, Faults, Matcher};
pub use link::Link;
pub use listener::kubeconfig;
pub use request::Verb;
pub use service::ApiService;
pub use status::{ApiError, FieldError, FieldErrorKind};
pub use workloads::DEPLOYMENT_CONTROLLER;

/// How many changes watches can resume across before a resourceVersion is "too old" (410).
const DEFAULT_HISTORY: usize = 10_000;

/// An in-memory Kubernetes API server. Cheap to clone: clones are handles to the same server.
#[derive(Clone)]
pub struct ApiServer {
    service: ApiService,
}

impl std::fmt::Debug for ApiServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiServer")
            .field("resource_version", &self.resource_version())
            .finish_non_exhaustive()
    }
}

impl Default for ApiServer {
    fn default() -> Self {
        Self::new()
    }
}

impl ApiServer {
    /// A server with the built-in kinds and the `default`, `kube-system`, `kube-public` and
    /// `kube-node-lease` namespaces.
    pub fn new() -> Self {
        Self::with_history_limit(DEFAULT_HISTORY)
    }

    /// A server that keeps only the last `changes` changes for watch resumption; older
    /// resourceVersions get 410 Gone.
    pub fn with_history_limit(changes: usize) -> Self {
        let shared = Arc::new(state::Shared {
            state: Mutex::new(state::State::new(changes.max(1))),
            faults: Faults::default(),
            counters: Counters::default(),
        });
        let weak = Arc::downgrade(&shared);
        shared
            .faults
            .on_drop_watches(move || weak.upgrade().map_or(0, |s| s.lock().store.drop_watches()));
        Self {
            service: ApiService { shared },
        }
    }

    /// Calls `webhooks` as the API server calls a webhook server: writes of their kinds go
    /// through the mutating webhooks, the schema and the validating webhooks, deletes through
    /// the validating ones (see `docs/testkit.md`). Replaces webhooks given before.
    #[cfg(feature = "webhook")]
    pub fn with_webhooks(self, webhooks: webop_core::webhook::Webhooks) -> Self {
        self.service.shared.lock().webhooks = Some(Arc::new(webhooks));
        self
    }

    /// A `kube::Client` talking to this server in-process (default namespace `default`).
    /// Must be called inside a Tokio runtime.
    pub fn client(&self) -> kube::Client {
        kube::Client::new(self.service.clone(), "default")
    }

    /// Starts a simulation of the Deployment controller on nodes that run every Pod at once:
    /// each Deployment's status soon tells of a finished rollout of its current spec (what
    /// kube-controller-manager and kwok do on a real control plane). Opt-in: without it, no
    /// Deployment ever gets a status. Must be called inside a Tokio runtime.
    pub fn run_deployment_controller(&self) {
        tokio::spawn(workloads::run_deployment_controller(self.client()));
    }

    /// A `kube::Client` of its own (default namespace `default`) and the [`Link`] that can cut
    /// it off from this server, as a network partition would, while other clients keep talking
    /// to it. Must be called inside a Tokio runtime.
    pub fn linked_client(&self) -> (kube::Client, Link) {
        let link = Link::default();
        let service = link::LinkedService {
            inner: self.service.clone(),
            link: link.clone(),
        };
        (kube::Client::new(service, "default"), link)
    }

    /// The server as a `tower::Service`.
    pub fn service(&self) -> ApiService {
        self.service.clone()
    }

    /// Installs (or updates) a CRD, serving its kind at once, exactly as creating it through the
    /// client would.
    ///
    /// ```
    /// # fn crd() -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    /// #     serde_json::from_value(serde_json::json!({
    /// #         "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    /// #         "metadata": {"name": "webapps.app.example.com"},
    /// #         "spec": {"group": "app.example.com", "scope": "Namespaced",
    /// #                  "names": {"kind": "WebApp", "plural": "webapps", "singular": "webapp", "listKind": "WebAppList"},
    /// #                  "versions": [{"name": "v1", "served": true, "storage": true,
    /// #                                "schema": {"openAPIV3Schema": {"type": "object"}}}]}})).unwrap()
    /// # }
    /// let server = webop_testkit::ApiServer::new();
    /// server.install_crd(crd()).unwrap(); // e.g. `WebApp::crd()`
    /// ```
    pub fn install_crd(&self, crd: impl Borrow<CustomResourceDefinition>) -> Result<(), ApiError> {
        let body =
            serde_json::to_vec(crd.borrow()).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let name = crd.borrow().metadata.name.clone().unwrap_or_default();
        let mut state = self.service.shared.lock();
        let target = request::Target {
            group: "apiextensions.k8s.io".into(),
            version: "v1".into(),
            namespace: None,
            plural: "customresourcedefinitions".into(),
            name: None,
            subresource: None,
        };
        let mut request = handlers::Request {
            target,
            verb: Verb::Create,
            query: request::Query::parse(Some("fieldManager=webop-testkit")),
            body: body.into(),
            content_type: "application/json".into(),
            user_agent: String::new(),
            metadata_only: false,
            table: false,
            admission: None,
        };
        match handlers::handle(&mut state, &request) {
            Err(error) if error.code == 409 => {
                request.verb = Verb::Patch;
                request.target.name = Some(name);
                request.content_type = "application/merge-patch+json".into();
                handlers::handle(&mut state, &request).map(drop)
            }
            other => other.map(drop),
        }
    }

    /// Creates `object` as a dry run (`dryRun=All`; `fieldValidation=Strict` when `strict`), as
    /// `kubectl create --dry-run=server` would: the object as the server would store it
    /// (pruned and defaulted), or the server's refusal. `plural` is the resource of the object's
    /// kind; `namespace` is where a namespaced object goes (created first if missing).
    pub fn dry_run_create(
        &self,
        object: &serde_json::Value,
        plural: &str,
        namespace: Option<&str>,
        strict: bool,
    ) -> Result<serde_json::Value, ApiError> {
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let mut state = self.service.shared.lock();
        if let Some(namespace) = namespace {
            let namespace_object = serde_json::json!({
                "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}});
            let create = Self::create_request("", "v1", None, "namespaces", &namespace_object, "");
            match handlers::handle(&mut state, &create) {
                Err(error) if error.code != 409 => return Err(error),
                _ => {}
            }
        }
        let query = if strict {
            "dryRun=All&fieldValidation=Strict"
        } else {
            "dryRun=All&fieldValidation=Ignore"
        };
        let request = Self::create_request(group, version, namespace, plural, object, query);
        match handlers::handle(&mut state, &request)? {
            handlers::Reply::Json(_, stored) => Ok(stored),
            handlers::Reply::Watch(_) => unreachable!("a create is answered with an object"),
        }
    }

    fn create_request(
        group: &str,
        version: &str,
        namespace: Option<&str>,
        plural: &str,
        object: &serde_json::Value,
        query: &str,
    ) -> handlers::Request {
        handlers::Request {
            target: request::Target {
                group: group.into(),
                version: version.into(),
                namespace: namespace.map(str::to_owned),
                plural: plural.into(),
                name: None,
                subresource: None,
            },
            verb: Verb::Create,
            query: request::Query::parse(Some(query)),
            body: serde_json::to_vec(object).unwrap_or_default().into(),
            content_type: "application/json".into(),
            user_agent: String::new(),
            metadata_only: false,
            table: false,
            admission: None,
        }
    }

    /// The fault injector.
    pub fn faults(&self) -> &Faults {
        &self.service.shared.faults
    }

    /// The request counters.
    pub fn counters(&self) -> &Counters {
        &self.service.shared.counters
    }

    /// The latest resourceVersion.
    pub fn resource_version(&self) -> u64 {
        self.service.shared.lock().store.revision()
    }

    /// Forgets the change history, as etcd compaction does: watches from older resourceVersions
    /// get 410 Gone and must relist.
    pub fn compact(&self) {
        self.service.shared.lock().store.compact();
    }

    /// Sends a `BOOKMARK` at the current resourceVersion to every watch that allows bookmarks
    /// (the real server sends them about once a minute).
    pub fn send_bookmarks(&self) {
        self.service.shared.lock().store.bookmark_all();
    }

    /// Number of open watches.
    pub fn open_watches(&self) -> usize {
        self.service.shared.lock().store.watch_count()
    }

    /// Serves the same API over plain HTTP on a loopback address (`127.0.0.1:0` picks a port),
    /// for kubectl and other processes ([`kubeconfig`] writes a kubeconfig for it). Returns the
    /// bound address. Must be called inside a Tokio runtime; serves until the runtime stops.
    pub async fn serve_http(&self, address: SocketAddr) -> std::io::Result<SocketAddr> {
        listener::serve(self.service.clone(), address).await
    }
}
