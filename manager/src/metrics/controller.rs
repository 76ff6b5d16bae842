//! controller-runtime's per-controller metrics (`controller_runtime_*`), with its names, help
//! texts, labels and histogram buckets, so that dashboards built for Go operators read them.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

/// controller-runtime's `controller_runtime_reconcile_time_seconds` buckets.
const RECONCILE_TIME_BUCKETS: [f64; 40] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0,
    25.0, 30.0, 40.0, 50.0, 60.0,
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

/// How a reconcile ended: the `result` label of `controller_runtime_reconcile_total`.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Outcome {
    /// It succeeded and waits for the next change.
    Success,
    /// It succeeded and asked to run again after a while.
    RequeueAfter,
    /// It failed (or panicked) and is retried after its backoff.
    Error,
}

impl Outcome {
    /// The `result` label.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::RequeueAfter => "requeue_after",
            Outcome::Error => "error",
        }
    }

    const ALL: [Outcome; 3] = [Outcome::Success, Outcome::RequeueAfter, Outcome::Error];
}

fn reconcile_time_histogram() -> Histogram {
    Histogram::new(RECONCILE_TIME_BUCKETS)
}

/// The families of every controller's metrics.
#[derive(Clone)]
pub(super) struct ControllerFamilies {
    reconciles: Family<ResultLabels, Counter>,
    errors: Family<ControllerLabels, Counter>,
    panics: Family<ControllerLabels, Counter>,
    time: Family<ControllerLabels, Histogram, fn() -> Histogram>,
    active_workers: Family<ControllerLabels, Gauge>,
    max_concurrent: Family<ControllerLabels, Gauge>,
}

impl ControllerFamilies {
    pub(super) fn register(registry: &mut Registry) -> Self {
        let families = ControllerFamilies {
            reconciles: Family::default(),
            errors: Family::default(),
            panics: Family::default(),
            time: Family::new_with_constructor(reconcile_time_histogram),
            active_workers: Family::default(),
            max_concurrent: Family::default(),
        };
        registry.register(
            "controller_runtime_reconcile",
            "Total number of reconciliations per controller",
            families.reconciles.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_errors",
            "Total number of reconciliation errors per controller",
            families.errors.clone(),
        );
        registry.register(
            "controller_runtime_reconcile_panics",
            "Total number of reconciliation panics per controller",
            families.panics.clone(),
        );
        registry.register_with_unit(
            "controller_runtime_reconcile_time",
            "Length of time per reconciliation per controller",
            Unit::Seconds,
            families.time.clone(),
        );
        registry.register(
            "controller_runtime_max_concurrent_reconciles",
            "Maximum number of concurrent reconciles per controller",
            families.max_concurrent.clone(),
        );
        registry.register(
            "controller_runtime_active_workers",
            "Number of currently used workers per controller",
            families.active_workers.clone(),
        );
        families
    }

    /// The metrics of the controller `name`, every series present from the start (at zero), as
    /// controller-runtime initialises them, so that rates and alerts see a series before the
    /// first event.
    pub(super) fn controller(&self, name: &str, max_concurrent: u16) -> ReconcileMetrics {
        let labels = ControllerLabels {
            controller: name.to_owned(),
        };
        let reconciles = Outcome::ALL.map(|outcome| {
            self.reconciles.get_or_create_owned(&ResultLabels {
                controller: name.to_owned(),
                result: outcome.label(),
            })
        });
        let metrics = ReconcileMetrics {
            reconciles,
            errors: self.errors.get_or_create_owned(&labels),
            panics: self.panics.get_or_create_owned(&labels),
            time: self.time.get_or_create_owned(&labels),
            active_workers: self.active_workers.get_or_create_owned(&labels),
        };
        self.max_concurrent
            .get_or_create_owned(&labels)
            .set(i64::from(max_concurrent));
        metrics
    }
}

/// The reconcile metrics of one controller, bound to its label.
#[derive(Clone, Debug)]
pub struct ReconcileMetrics {
    /// By [`Outcome`], in the order of `Outcome::ALL`.
    reconciles: [Counter; 3],
    errors: Counter,
    panics: Counter,
    time: Histogram,
    active_workers: Gauge,
}

impl ReconcileMetrics {
    /// A reconcile started: one more busy worker.
    pub fn started(&self) {
        self.active_workers.inc();
    }

    /// A reconcile that started ended with `outcome` after `took`; `panicked` if it panicked
    /// (which is also an [`Outcome::Error`]).
    pub fn finished(&self, outcome: Outcome, panicked: bool, took: Duration) {
        self.active_workers.dec();
        let index = Outcome::ALL.iter().position(|o| *o == outcome).unwrap_or(0);
        self.reconciles[index].inc();
        if outcome == Outcome::Error {
            self.errors.inc();
        }
        if panicked {
            self.panics.inc();
        }
        self.time.observe(took.as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::super::Metrics;
    use super::*;

    #[test]
    fn controller_runtime_names_labels_and_buckets() {
        let metrics = Metrics::new();
        let webapp = metrics.controller("webapp", 2).reconciles;
        for (outcome, panicked, millis) in [
            (Outcome::Success, false, 3),
            (Outcome::Error, false, 30),
            (Outcome::Error, true, 1),
            (Outcome::RequeueAfter, false, 70_000),
        ] {
            webapp.started();
            webapp.finished(outcome, panicked, Duration::from_millis(millis));
        }
        let text = metrics.encode();
        for line in [
            "controller_runtime_reconcile_total{controller=\"webapp\",result=\"success\"} 1",
            "controller_runtime_reconcile_total{controller=\"webapp\",result=\"error\"} 2",
            "controller_runtime_reconcile_total{controller=\"webapp\",result=\"requeue_after\"} 1",
            "controller_runtime_reconcile_errors_total{controller=\"webapp\"} 2",
            "controller_runtime_reconcile_panics_total{controller=\"webapp\"} 1",
            "controller_runtime_reconcile_time_seconds_count{controller=\"webapp\"} 4",
            "controller_runtime_reconcile_time_seconds_bucket{le=\"0.005\",controller=\"webapp\"} 2",
            "controller_runtime_reconcile_time_seconds_bucket{le=\"0.35\",controller=\"webapp\"} 3",
            "controller_runtime_reconcile_time_seconds_bucket{le=\"60.0\",controller=\"webapp\"} 3",
            "controller_runtime_max_concurrent_reconciles{controller=\"webapp\"} 2",
            "controller_runtime_active_workers{controller=\"webapp\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
        }
    }
}
