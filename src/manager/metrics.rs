//! The Prometheus metrics of the controllers, named after controller-runtime's (without its
//! `controller_runtime_` prefix). Labels stay low-cardinality: the controller name and the
//! result, never an object name.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

/// controller-runtime's reconcile-time buckets, in seconds.
const DURATION_BUCKETS: [f64; 20] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0,
    10.0, 30.0, 60.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ControllerLabels {
    controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabels {
    controller: String,
    result: &'static str,
}

/// How a reconcile ended.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Outcome {
    Success,
    Error,
}

impl Outcome {
    /// The `result` label.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Error => "error",
        }
    }
}

fn duration_histogram() -> Histogram {
    Histogram::new(DURATION_BUCKETS)
}

/// Every metric of the manager, and the registry `/metrics` encodes. Cheap to clone.
#[derive(Clone)]
pub struct Metrics {
    registry: Arc<Registry>,
    reconciles: Family<ResultLabels, Counter>,
    errors: Family<ControllerLabels, Counter>,
    durations: Family<ControllerLabels, Histogram, fn() -> Histogram>,
    queue_depth: Family<ControllerLabels, Gauge>,
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

impl Metrics {
    /// A registry with the reconcile metrics registered.
    pub fn new() -> Self {
        let reconciles = Family::<ResultLabels, Counter>::default();
        let errors = Family::<ControllerLabels, Counter>::default();
        let durations = Family::new_with_constructor(duration_histogram as fn() -> Histogram);
        let queue_depth = Family::<ControllerLabels, Gauge>::default();
        let mut registry = Registry::default();
        registry.register(
            "reconcile",
            "Reconciliations per controller and result",
            reconciles.clone(),
        );
        registry.register(
            "reconcile_errors",
            "Reconciliations that returned an error, per controller",
            errors.clone(),
        );
        registry.register_with_unit(
            "reconcile_duration",
            "How long reconciliations take, per controller",
            Unit::Seconds,
            durations.clone(),
        );
        registry.register(
            "workqueue_depth",
            "Objects waiting for a reconcile, per controller",
            queue_depth.clone(),
        );
        Metrics {
            registry: Arc::new(registry),
            reconciles,
            errors,
            durations,
            queue_depth,
        }
    }

    /// The metrics of one controller.
    pub fn controller(&self, name: &str) -> ControllerMetrics {
        let labels = ControllerLabels {
            controller: name.to_owned(),
        };
        let result = |outcome: Outcome| ResultLabels {
            controller: name.to_owned(),
            result: outcome.label(),
        };
        ControllerMetrics {
            succeeded: self
                .reconciles
                .get_or_create_owned(&result(Outcome::Success)),
            failed: self.reconciles.get_or_create_owned(&result(Outcome::Error)),
            errors: self.errors.get_or_create_owned(&labels),
            duration: self.durations.get_or_create_owned(&labels),
            queue_depth: self.queue_depth.get_or_create_owned(&labels),
        }
    }

    /// Everything in Prometheus' text exposition format.
    pub fn encode(&self) -> String {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        text
    }
}

/// The metrics of one controller, bound to its label.
#[derive(Clone, Debug)]
pub struct ControllerMetrics {
    succeeded: Counter,
    failed: Counter,
    errors: Counter,
    duration: Histogram,
    queue_depth: Gauge,
}

impl ControllerMetrics {
    /// Records one finished reconcile.
    pub fn reconciled(&self, outcome: Outcome, took: Duration) {
        match outcome {
            Outcome::Success => self.succeeded.inc(),
            Outcome::Error => {
                self.errors.inc();
                self.failed.inc()
            }
        };
        self.duration.observe(took.as_secs_f64());
    }

    /// Sets the number of objects waiting for a reconcile.
    pub fn set_queue_depth(&self, depth: usize) {
        self.queue_depth
            .set(i64::try_from(depth).unwrap_or(i64::MAX));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_names_and_labels() {
        let metrics = Metrics::new();
        let webapp = metrics.controller("webapp");
        webapp.reconciled(Outcome::Success, Duration::from_millis(3));
        webapp.reconciled(Outcome::Error, Duration::from_millis(30));
        webapp.set_queue_depth(2);
        let text = metrics.encode();
        for line in [
            "reconcile_total{controller=\"webapp\",result=\"success\"} 1",
            "reconcile_total{controller=\"webapp\",result=\"error\"} 1",
            "reconcile_errors_total{controller=\"webapp\"} 1",
            "reconcile_duration_seconds_count{controller=\"webapp\"} 2",
            "reconcile_duration_seconds_bucket{le=\"0.005\",controller=\"webapp\"} 1",
            "workqueue_depth{controller=\"webapp\"} 2",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
        }
    }
}
