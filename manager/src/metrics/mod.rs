//! The manager's Prometheus metrics, named, labelled and bucketed as a controller-runtime
//! manager's, so that dashboards and alerts made for Go operators work unchanged:
//!
//! - `controller_runtime_*`: reconciles by result, errors, panics, reconcile time, active and
//!   maximum workers ([`controller`]);
//! - `workqueue_*`: depth, adds, queue and work durations, retries, unfinished work, longest
//!   running reconcile, labelled `name` and `controller` ([`workqueue`]);
//! - `rest_client_*`: requests to the API server by code, method and host, and their latency;
//! - `controller_runtime_webhook_*` (feature `webhook`): webhook requests by code, in flight,
//!   and their latency, labelled by the webhook's path;
//! - `leader_election_master_status` and `leader_election_slowpath_total`, labelled `name`;
//! - `process_*`: CPU, memory, file descriptors, start time.
//!
//! Labels stay low-cardinality: controller names, results, HTTP codes, never an object's name.

mod controller;
mod process;
mod rest_client;
#[cfg(feature = "webhook")]
mod webhook;
mod workqueue;

use std::sync::Arc;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

pub use controller::{Outcome, ReconcileMetrics};
pub use rest_client::{RestClientMetrics, RestClientMetricsLayer};
#[cfg(feature = "webhook")]
pub use webhook::WebhookRequest;
pub use workqueue::WorkQueue;

/// The OpenMetrics text format's content type.
const OPENMETRICS_TEXT: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LeaseLabels {
    name: String,
}

/// Every metric of the manager, and the registry `/metrics` encodes. Cheap to clone.
#[derive(Clone)]
pub struct Metrics {
    registry: Arc<Registry>,
    controllers: controller::ControllerFamilies,
    queues: workqueue::WorkQueueFamilies,
    rest_client: rest_client::RestClientFamilies,
    #[cfg(feature = "webhook")]
    webhooks: webhook::WebhookFamilies,
    leader_status: Family<LeaseLabels, Gauge>,
    leader_slow_path: Family<LeaseLabels, Counter>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// One controller's metrics: its reconciles and its work queue.
#[derive(Clone, Debug)]
pub struct ControllerMetrics {
    /// `controller_runtime_*` of this controller.
    pub reconciles: ReconcileMetrics,
    /// `workqueue_*` of this controller.
    pub queue: WorkQueue,
}

/// The leader-election metrics of one Lease.
#[derive(Clone, Debug)]
pub struct LeaderElectionMetrics {
    status: Gauge,
    slow_path: Counter,
}

impl LeaderElectionMetrics {
    /// `leader_election_master_status`: 1 while leading, 0 on standby.
    pub fn set_leading(&self, leading: bool) {
        self.status.set(i64::from(leading));
    }

    /// `leader_election_slowpath_total`: renewals that had to read the Lease again.
    pub fn add_slow_renewals(&self, count: u64) {
        self.slow_path.inc_by(count);
    }
}

impl Metrics {
    /// A registry with every family registered, and no series yet but the process's.
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let controllers = controller::ControllerFamilies::register(&mut registry);
        let queues = workqueue::WorkQueueFamilies::register(&mut registry);
        let rest_client = rest_client::RestClientFamilies::register(&mut registry);
        #[cfg(feature = "webhook")]
        let webhooks = webhook::WebhookFamilies::register(&mut registry);
        let leader_status = Family::<LeaseLabels, Gauge>::default();
        registry.register(
            "leader_election_master_status",
            "Gauge of if the reporting system is master of the relevant lease, 0 indicates \
             backup, 1 indicates master. 'name' is the string used to identify the lease. \
             Please make sure to group by name.",
            leader_status.clone(),
        );
        let leader_slow_path = Family::<LeaseLabels, Counter>::default();
        registry.register(
            "leader_election_slowpath",
            "Total number of slow path exercised in renewing leader leases. 'name' is the \
             string used to identify the lease. Please make sure to group by name.",
            leader_slow_path.clone(),
        );
        registry.register_collector(Box::new(process::ProcessCollector));
        Metrics {
            registry: Arc::new(registry),
            controllers,
            queues,
            rest_client,
            #[cfg(feature = "webhook")]
            webhooks,
            leader_status,
            leader_slow_path,
        }
    }

    /// The metrics of the controller `name`, which runs up to `max_concurrent` reconciles.
    pub fn controller(&self, name: &str, max_concurrent: u16) -> ControllerMetrics {
        ControllerMetrics {
            reconciles: self.controllers.controller(name, max_concurrent),
            queue: self.queues.queue(name),
        }
    }

    /// The leader-election metrics of the Lease `name`.
    pub fn leader_election(&self, name: &str) -> LeaderElectionMetrics {
        let labels = LeaseLabels {
            name: name.to_owned(),
        };
        LeaderElectionMetrics {
            status: self.leader_status.get_or_create_owned(&labels),
            slow_path: self.leader_slow_path.get_or_create_owned(&labels),
        }
    }

    /// A layer for a `kube::Client` to the API server at `host` (`10.96.0.1:443`) that records
    /// its requests in `rest_client_*`.
    pub fn rest_client_layer(&self, host: &str) -> RestClientMetricsLayer {
        self.rest_client.layer(host)
    }

    /// Starts measuring a request to the webhook at `path` (`controller_runtime_webhook_*`).
    #[cfg(feature = "webhook")]
    pub fn webhook_request(&self, path: &str) -> WebhookRequest {
        self.webhooks.start(path)
    }

    /// Everything in the OpenMetrics text format.
    pub fn encode(&self) -> String {
        self.queues.catch_up();
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        text
    }

    /// Everything in the format a scraper's `Accept` header asks for, and its content type:
    /// OpenMetrics for Prometheus (which asks for it first), else the classic Prometheus text
    /// format (0.0.4) that every other scraper reads.
    pub fn encode_for(&self, accept: &str) -> (&'static str, String) {
        if accept.contains("application/openmetrics-text") {
            return (OPENMETRICS_TEXT, self.encode());
        }
        self.queues.catch_up();
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        (
            prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
            text,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrapers_get_the_format_they_ask_for() {
        let metrics = Metrics::new();
        metrics.controller("webapp", 1).queue.add("ns/a");
        let prometheus = "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.4";
        let (content_type, text) = metrics.encode_for(prometheus);
        assert!(content_type.starts_with("application/openmetrics-text"));
        assert!(text.ends_with("# EOF\n"));
        assert!(text.contains("# TYPE workqueue_adds counter\n"), "{text}");

        let (content_type, text) = metrics.encode_for("text/plain");
        assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
        assert!(!text.contains("# EOF"));
        assert!(
            text.contains("# TYPE workqueue_adds_total counter\n"),
            "{text}"
        );
        assert!(text.contains("workqueue_adds_total{name=\"webapp\",controller=\"webapp\"} 1"));
    }

    #[test]
    fn leader_election_status_per_lease() {
        let metrics = Metrics::new();
        let lease = metrics.leader_election("webapp-operator.example.com");
        lease.set_leading(true);
        lease.add_slow_renewals(2);
        let text = metrics.encode();
        for line in [
            "leader_election_master_status{name=\"webapp-operator.example.com\"} 1",
            "leader_election_slowpath_total{name=\"webapp-operator.example.com\"} 2",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
        }
    }
}
