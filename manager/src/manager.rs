//! The [`Manager`]: shared client, metrics, readiness and shutdown; runs the controllers with
//! leader election and serves the HTTP endpoints around them.

use std::net::SocketAddr;
use std::sync::Arc;

use kube::Client;
use kube::runtime::events::{Recorder, Reporter};
use tokio::task::JoinHandle;
use tokio::time::Instant;

#[cfg(feature = "webhook")]
mod webhooks;

use super::metrics_auth::MetricsAuth;
use super::options::parse_bind_address;
use super::{
    ControllerKit, Error, Metrics, Options, RateLimitLayer, Readiness, Shutdown, server, tls,
};

/// What every controller of an operator shares. Cheap to clone.
#[derive(Clone)]
pub struct Manager {
    inner: Arc<Inner>,
}

struct Inner {
    options: Options,
    client: Client,
    /// The manager's own client, for leader election and the reviews of metrics scrapers:
    /// outside the rate limit of `client`, so that busy controllers cannot delay a renewal
    /// past the renew deadline, nor a scrape.
    own_client: Client,
    metrics: Metrics,
    readiness: Readiness,
    shutdown: Shutdown,
    leader_election_id: String,
    /// Where the servers listen, once [`Manager::serve`] bound them.
    bound: std::sync::Mutex<(Option<SocketAddr>, Option<SocketAddr>)>,
    /// The webhooks the webhook server serves, and its readiness until it listens.
    #[cfg(feature = "webhook")]
    webhooks: std::sync::Mutex<Option<webhooks::ServedWebhooks>>,
}

impl std::fmt::Debug for Manager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Manager")
            .field("options", &self.inner.options)
            .field("leader_election_id", &self.inner.leader_election_id)
            .finish_non_exhaustive()
    }
}

/// The bound addresses of the HTTP endpoints and their tasks.
#[derive(Debug)]
pub struct Servers {
    /// Where `/metrics` listens, if enabled (HTTPS unless `--metrics-secure=false`).
    pub metrics: Option<SocketAddr>,
    /// Where `/healthz` and `/readyz` listen, if enabled.
    pub probes: Option<SocketAddr>,
    /// Where the webhook server listens, if it has webhooks and `ENABLE_WEBHOOKS` is not false.
    #[cfg(feature = "webhook")]
    pub webhook: Option<SocketAddr>,
    tasks: Vec<JoinHandle<()>>,
}

impl Servers {
    /// Waits for the servers to stop (they stop on the manager's shutdown).
    pub async fn stopped(self) {
        for task in self.tasks {
            let _ = task.await;
        }
    }

    /// Waits for the servers to stop until `deadline`, then stops them at once.
    pub async fn stopped_by(self, deadline: Instant) {
        for mut task in self.tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
            }
        }
    }
}

impl Manager {
    /// A manager on the cluster of the environment (in-cluster service account, else the
    /// kubeconfig), its client rate-limited to `--kube-api-qps`/`--kube-api-burst`.
    /// `leader_election_id` names the Lease unless `--leader-election-id` does.
    pub async fn new(options: Options, leader_election_id: &str) -> Result<Self, Error> {
        let config = kube::Config::infer().await?;
        Self::from_config(config, options, leader_election_id)
    }

    /// A manager on the cluster `config` describes: its requests carry the manager's
    /// [`user_agent`](crate::user_agent), are counted in `rest_client_*` and rate-limited to
    /// `--kube-api-qps`/`--kube-api-burst`.
    pub fn from_config(
        mut config: kube::Config,
        options: Options,
        leader_election_id: &str,
    ) -> Result<Self, Error> {
        let user_agent = http::HeaderValue::from_str(&super::user_agent())
            .map_err(|e| Error::Options(format!("User-Agent: {e}")))?;
        config.headers.push((http::header::USER_AGENT, user_agent));
        let metrics = Metrics::new();
        let host = config
            .cluster_url
            .authority()
            .map_or_else(String::new, ToString::to_string);
        // Counted below the rate limiter: waiting for a turn is not the API server's latency.
        let counted = metrics.rest_client_layer(&host);
        let limit = RateLimitLayer::new(options.kube_api_qps, options.kube_api_burst);
        let client = kube::client::ClientBuilder::try_from(config.clone())?
            .with_layer(&counted)
            .with_layer(&limit)
            .build();
        let own_client = kube::client::ClientBuilder::try_from(config)?
            .with_layer(&counted)
            .build();
        let clients = (client, own_client);
        Ok(Self::assemble(
            clients,
            metrics,
            options,
            leader_election_id,
        ))
    }

    /// A manager on `client` as it is (tests pass a `webop::testkit` client); leader election
    /// and the metrics server's reviews use it too.
    pub fn with_client(client: Client, options: Options, leader_election_id: &str) -> Self {
        let clients = (client.clone(), client);
        Self::assemble(clients, Metrics::new(), options, leader_election_id)
    }

    fn assemble(
        (client, own_client): (Client, Client),
        metrics: Metrics,
        options: Options,
        leader_election_id: &str,
    ) -> Self {
        let leader_election_id = options
            .leader_election_id
            .clone()
            .unwrap_or_else(|| leader_election_id.to_owned());
        Manager {
            inner: Arc::new(Inner {
                options,
                client,
                own_client,
                metrics,
                readiness: Readiness::default(),
                shutdown: Shutdown::default(),
                leader_election_id,
                bound: std::sync::Mutex::default(),
                #[cfg(feature = "webhook")]
                webhooks: std::sync::Mutex::default(),
            }),
        }
    }

    /// The shared client.
    pub fn client(&self) -> Client {
        self.inner.client.clone()
    }

    /// The options the manager was started with.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }

    /// The metrics `/metrics` serves.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// The started checks `/readyz` waits for (the webhook server's).
    pub fn readiness(&self) -> &Readiness {
        &self.inner.readiness
    }

    /// Starts a graceful shutdown, as SIGTERM does.
    pub fn shutdown(&self) {
        self.inner.shutdown.trigger();
    }

    /// When the shutdown started, if it has, and when it must be over
    /// (`--graceful-shutdown-timeout` later).
    pub(super) fn shutdown_deadline(&self) -> Option<Instant> {
        let started = self.inner.shutdown.started_at()?;
        Some(started + self.inner.options.graceful_shutdown_timeout)
    }

    pub(super) fn trigger_shutdown_on_signals(&self) {
        self.inner.shutdown.trigger_on_signals();
    }

    /// The manager's own client (leader election, metrics reviews), outside the rate limit.
    pub(super) fn own_client(&self) -> Client {
        self.inner.own_client.clone()
    }

    /// The name of the leader-election Lease.
    pub(super) fn leader_election_id(&self) -> &str {
        &self.inner.leader_election_id
    }

    /// An `Api` of the namespaced kind `K` where the controllers watch: the namespace of
    /// `--watch-namespace`, or every namespace.
    pub fn api<K>(&self) -> kube::Api<K>
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
    {
        match &self.inner.options.watch_namespace {
            Some(namespace) => kube::Api::namespaced(self.client(), namespace),
            None => kube::Api::all(self.client()),
        }
    }

    /// Resolves when the manager shuts down; give it to `Controller::graceful_shutdown_on`.
    pub fn shutdown_signal(&self) -> impl Future<Output = ()> + Send + Sync + 'static {
        self.inner.shutdown.wait()
    }

    /// kube-runtime's controller settings from the flags: bounded concurrency (kube-runtime
    /// is unbounded by default; controller-runtime runs one reconcile at a time).
    pub fn controller_config(&self) -> kube::runtime::controller::Config {
        kube::runtime::controller::Config::default()
            .concurrency(self.inner.options.max_concurrent_reconciles)
    }

    /// kube's event recorder reporting as `controller` (and this Pod, from `HOSTNAME`). It
    /// keeps every event it recorded for six minutes; [`Manager::event_recorder`] keeps a
    /// bounded number.
    pub fn recorder(&self, controller: &str) -> Recorder {
        Recorder::new(self.client(), reporter(controller))
    }

    /// An event recorder reporting as `controller` (and this Pod, from `HOSTNAME`), in bounded
    /// memory (see [`EventRecorder`](crate::EventRecorder)).
    pub fn event_recorder(&self, controller: &str) -> crate::EventRecorder {
        crate::EventRecorder::new(self.client(), reporter(controller))
    }

    /// Applies a controller's children, writes its status and records its events as
    /// `field_manager` (see [`crate::reconcile`]).
    pub fn children(&self, field_manager: &'static str) -> crate::Children {
        let recorder = self.event_recorder(field_manager);
        crate::Children::new(self.client(), field_manager, recorder)
    }

    /// The share of the manager that the controller `name` of `K` uses.
    pub fn controller<K>(&self, name: &'static str) -> ControllerKit<K>
    where
        K: kube::Resource<DynamicType = ()>
            + Clone
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Send
            + Sync
            + 'static,
    {
        ControllerKit::new(self.clone(), name)
    }

    /// Binds the metrics and probe endpoints the options ask for, and the webhook server if
    /// there are webhooks; they stop on shutdown ([`Manager::run`] keeps them serving until
    /// the controllers have drained and the Lease is released).
    /// `/metrics` is HTTPS, for scrapers the API server authenticates and authorizes, unless
    /// `--metrics-secure=false`.
    pub async fn serve(&self) -> Result<Servers, Error> {
        self.serve_until(&self.inner.shutdown).await
    }

    /// As [`Manager::serve`], the servers stopping on `shutdown`.
    pub(super) async fn serve_until(&self, shutdown: &Shutdown) -> Result<Servers, Error> {
        let options = &self.inner.options;
        let mut servers = Servers {
            metrics: None,
            probes: None,
            #[cfg(feature = "webhook")]
            webhook: None,
            tasks: Vec::new(),
        };
        let flag = "--metrics-bind-address";
        if let Some(address) = parse_bind_address(flag, &options.metrics_bind_address)? {
            let metrics = self.inner.metrics.clone();
            let (routes, tls) = if options.metrics_secure {
                let auth = MetricsAuth::new(self.own_client());
                let routes = server::metrics_routes(metrics, Some(auth));
                let (acceptor, _) = tls::acceptor(tls::CertificateSource::metrics(options))?;
                (routes, Some(acceptor))
            } else {
                (server::metrics_routes(metrics, None), None)
            };
            let (bound, task) = server::spawn(flag, address, routes, tls, shutdown.clone()).await?;
            servers.metrics = Some(bound);
            servers.tasks.push(task);
        }
        let flag = "--health-probe-bind-address";
        if let Some(address) = parse_bind_address(flag, &options.health_probe_bind_address)? {
            let routes = server::probe_routes(self.inner.readiness.clone());
            let shutdown = shutdown.clone();
            let (bound, task) = server::spawn(flag, address, routes, None, shutdown).await?;
            servers.probes = Some(bound);
            servers.tasks.push(task);
        }
        #[cfg(feature = "webhook")]
        self.serve_webhooks(&mut servers, shutdown).await?;
        *self.inner.bound.lock().unwrap_or_else(|e| e.into_inner()) =
            (servers.metrics, servers.probes);
        Ok(servers)
    }

    /// Where `/metrics` listens, once serving (useful with port 0, as tests bind it).
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.inner.bound.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    /// Where `/healthz` and `/readyz` listen, once serving.
    pub fn probe_address(&self) -> Option<SocketAddr> {
        self.inner.bound.lock().unwrap_or_else(|e| e.into_inner()).1
    }
}

/// Events' reporter: `controller`, from this Pod (`HOSTNAME`).
fn reporter(controller: &str) -> Reporter {
    Reporter {
        controller: controller.to_owned(),
        instance: std::env::var("HOSTNAME").ok(),
    }
}
