//! The [`Manager`]: shared client, metrics, readiness and shutdown; runs the controllers with
//! leader election and serves the HTTP endpoints around them.

use std::net::SocketAddr;
use std::sync::Arc;

use kube::Client;
use kube::runtime::events::{Recorder, Reporter};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::elector::Elector;
use super::leader::{Leadership, Timings, identity, lease_namespace};
use super::lease_lock::LeaseLock;
use super::options::parse_bind_address;
use super::{ControllerKit, Error, Metrics, Options, RateLimitLayer, Readiness, Shutdown, server};

/// What every controller of an operator shares. Cheap to clone.
#[derive(Clone)]
pub struct Manager {
    inner: Arc<Inner>,
}

struct Inner {
    options: Options,
    client: Client,
    /// Leader election's own client: outside the rate limit of `client`, so that busy
    /// controllers cannot delay a renewal past the renew deadline.
    leader_election_client: Client,
    metrics: Metrics,
    readiness: Readiness,
    shutdown: Shutdown,
    leader_election_id: String,
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
    /// Where `/metrics` listens, if enabled.
    pub metrics: Option<SocketAddr>,
    /// Where `/healthz` and `/readyz` listen, if enabled.
    pub probes: Option<SocketAddr>,
    tasks: Vec<JoinHandle<()>>,
}

impl Servers {
    /// Waits for the servers to stop (they stop on the manager's shutdown).
    pub async fn stopped(self) {
        for task in self.tasks {
            let _ = task.await;
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

    /// A manager on the cluster `config` describes: its requests are counted in
    /// `rest_client_*` and rate-limited to `--kube-api-qps`/`--kube-api-burst`.
    pub fn from_config(
        config: kube::Config,
        options: Options,
        leader_election_id: &str,
    ) -> Result<Self, Error> {
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
        let leader_election_client = kube::client::ClientBuilder::try_from(config)?
            .with_layer(&counted)
            .build();
        let clients = (client, leader_election_client);
        Ok(Self::assemble(
            clients,
            metrics,
            options,
            leader_election_id,
        ))
    }

    /// A manager on `client` as it is (tests pass a `webop::testkit` client); leader election
    /// uses it too.
    pub fn with_client(client: Client, options: Options, leader_election_id: &str) -> Self {
        let clients = (client.clone(), client);
        Self::assemble(clients, Metrics::new(), options, leader_election_id)
    }

    fn assemble(
        (client, leader_election_client): (Client, Client),
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
                leader_election_client,
                metrics,
                readiness: Readiness::default(),
                shutdown: Shutdown::default(),
                leader_election_id,
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

    /// The caches `/readyz` waits for.
    pub fn readiness(&self) -> &Readiness {
        &self.inner.readiness
    }

    /// Starts a graceful shutdown, as SIGTERM does.
    pub fn shutdown(&self) {
        self.inner.shutdown.trigger();
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

    /// An event recorder reporting as `controller` (and this Pod, from `HOSTNAME`).
    pub fn recorder(&self, controller: &str) -> Recorder {
        let reporter = Reporter {
            controller: controller.to_owned(),
            instance: std::env::var("HOSTNAME").ok(),
        };
        Recorder::new(self.client(), reporter)
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

    /// Binds the metrics and probe endpoints the options ask for; they stop on shutdown.
    pub async fn serve(&self) -> Result<Servers, Error> {
        let options = &self.inner.options;
        let mut servers = Servers {
            metrics: None,
            probes: None,
            tasks: Vec::new(),
        };
        let shutdown = &self.inner.shutdown;
        let flag = "--metrics-bind-address";
        if let Some(address) = parse_bind_address(flag, &options.metrics_bind_address)? {
            let routes = server::metrics_routes(self.inner.metrics.clone());
            let (bound, task) = server::spawn(flag, address, routes, shutdown.clone()).await?;
            servers.metrics = Some(bound);
            servers.tasks.push(task);
        }
        let flag = "--health-probe-bind-address";
        if let Some(address) = parse_bind_address(flag, &options.health_probe_bind_address)? {
            let routes = server::probe_routes(self.inner.readiness.clone());
            let (bound, task) = server::spawn(flag, address, routes, shutdown.clone()).await?;
            servers.probes = Some(bound);
            servers.tasks.push(task);
        }
        Ok(servers)
    }

    /// Runs the operator until SIGTERM/SIGINT: serves the endpoints, waits for the Lease with
    /// `--leader-elect`, then runs `controllers` until shutdown (they must stop on
    /// [`Manager::shutdown_signal`]), releases the Lease and stops the servers.
    ///
    /// Losing the Lease returns [`Error::LostLease`] at once: the process should exit, as a
    /// controller-runtime manager does, so that two replicas never reconcile together.
    pub async fn run<F, Fut>(self, controllers: F) -> Result<(), Error>
    where
        F: FnOnce(Manager) -> Fut,
        Fut: Future<Output = ()>,
    {
        self.inner.options.validate()?;
        self.inner.shutdown.trigger_on_signals();
        let servers = self.serve().await?;
        let outcome = self.lead(controllers).await;
        self.shutdown();
        servers.stopped().await;
        tracing::info!("manager stopped");
        outcome
    }

    async fn lead<F, Fut>(&self, controllers: F) -> Result<(), Error>
    where
        F: FnOnce(Manager) -> Fut,
        Fut: Future<Output = ()>,
    {
        let options = &self.inner.options;
        if !options.leader_elect {
            controllers(self.clone()).await;
            return Ok(());
        }
        let client = self.inner.leader_election_client.clone();
        let namespace = lease_namespace(options.leader_election_namespace.as_deref(), &client);
        let name = &self.inner.leader_election_id;
        let lock = LeaseLock::new(client, &namespace, name);
        let timings = Timings::of(options);
        let elector = Elector::new(lock, identity(), timings.lease_duration);
        let metrics = self.inner.metrics.leader_election(name);
        let mut leadership = Leadership::start(elector, timings, metrics);
        let acquired = tokio::select! {
            acquired = leadership.acquired() => Some(acquired),
            () = self.shutdown_signal() => None,
        };
        let Some(acquired) = acquired else {
            leadership
                .release(Instant::now() + timings.renew_deadline)
                .await;
            return Ok(());
        };
        acquired?;
        let lost = tokio::select! {
            () = controllers(self.clone()) => false,
            () = leadership.lost() => true,
        };
        if lost {
            return Err(Error::LostLease(leadership.lease().to_owned()));
        }
        leadership
            .release(Instant::now() + timings.renew_deadline)
            .await;
        Ok(())
    }
}
