//! controller-runtime's webhook metrics (`pkg/webhook/internal/metrics`), labelled by the
//! webhook's path: requests by HTTP code, requests in flight, and latency with Prometheus'
//! default buckets, as controller-runtime's `RequestLatency` histogram has them.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use tokio::time::Instant;

/// Prometheus' default buckets (`prometheus.DefBuckets`).
const DEFAULT_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct WebhookLabels {
    webhook: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabels {
    webhook: String,
    code: String,
}

fn latency_histogram() -> Histogram {
    Histogram::new(DEFAULT_BUCKETS)
}

/// The webhook families.
#[derive(Clone)]
pub(super) struct WebhookFamilies {
    requests: Family<CodeLabels, Counter>,
    in_flight: Family<WebhookLabels, Gauge>,
    latency: Family<WebhookLabels, Histogram, fn() -> Histogram>,
}

impl WebhookFamilies {
    pub(super) fn register(registry: &mut Registry) -> Self {
        let families = WebhookFamilies {
            requests: Family::default(),
            in_flight: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
        };
        registry.register_with_unit(
            "controller_runtime_webhook_latency",
            "Histogram of the latency of processing admission requests",
            Unit::Seconds,
            families.latency.clone(),
        );
        registry.register(
            "controller_runtime_webhook_requests",
            "Total number of admission requests by HTTP status code.",
            families.requests.clone(),
        );
        registry.register(
            "controller_runtime_webhook_requests_in_flight",
            "Current number of admission requests being served.",
            families.in_flight.clone(),
        );
        families
    }

    /// Starts measuring one request to the webhook at `path`.
    pub(super) fn start(&self, path: &str) -> WebhookRequest {
        let labels = WebhookLabels {
            webhook: path.to_owned(),
        };
        self.in_flight.get_or_create(&labels).inc();
        WebhookRequest {
            families: self.clone(),
            labels,
            started: Instant::now(),
        }
    }
}

/// One request being served; [`WebhookRequest::finish`] records it. Dropped unfinished (the
/// client went away), it only leaves the in-flight gauge.
pub struct WebhookRequest {
    families: WebhookFamilies,
    labels: WebhookLabels,
    started: Instant,
}

impl WebhookRequest {
    /// The request was answered with the HTTP status `code`.
    pub fn finish(self, code: u16) {
        let elapsed = self.started.elapsed().as_secs_f64();
        let families = &self.families;
        families
            .latency
            .get_or_create(&self.labels)
            .observe(elapsed);
        let labels = CodeLabels {
            webhook: self.labels.webhook.clone(),
            code: code.to_string(),
        };
        families.requests.get_or_create(&labels).inc();
    }
}

impl Drop for WebhookRequest {
    fn drop(&mut self) {
        self.families.in_flight.get_or_create(&self.labels).dec();
    }
}
