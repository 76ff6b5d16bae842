//! client-go's work-queue metrics (`workqueue_*`, labelled `name` and `controller` as
//! controller-runtime labels them) for a kube-runtime controller, whose queue is internal to
//! kube-runtime: [`WorkQueue`] follows the same items from the outside (what the watches
//! trigger, what the error policy schedules, what the reconciles start and finish) and keeps
//! client-go's accounting: an item added twice before it is picked up is one add; a delayed
//! item is added when its delay ends; depth counts items added and not yet picked up, by
//! priority once the controller runs on webop's priority queue (`"0"` and `"-100"`, as
//! controller-runtime's priority queue labels them; `""` for kube-runtime's own queue).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use tokio::time::Instant;

use crate::priority_queue::Priority;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueueLabels {
    name: String,
    controller: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DepthLabels {
    name: String,
    controller: String,
    /// controller-runtime's priority queue label: the priority, or empty for a plain queue.
    priority: &'static str,
}

/// client-go's buckets for both durations: 10 ns to 1000 s, ten times apart.
fn duration_histogram() -> Histogram {
    Histogram::new(exponential_buckets(10e-9, 10.0, 12))
}

/// The families of every work queue, and the queues whose gauges are read at scrape time.
#[derive(Clone)]
pub(super) struct WorkQueueFamilies {
    adds: Family<QueueLabels, Counter>,
    retries: Family<QueueLabels, Counter>,
    queue_duration: Family<QueueLabels, Histogram, fn() -> Histogram>,
    work_duration: Family<QueueLabels, Histogram, fn() -> Histogram>,
    queues: Arc<Mutex<Vec<WorkQueue>>>,
}

impl WorkQueueFamilies {
    pub(super) fn register(registry: &mut Registry) -> Self {
        let families = WorkQueueFamilies {
            adds: Family::default(),
            retries: Family::default(),
            queue_duration: Family::new_with_constructor(duration_histogram),
            work_duration: Family::new_with_constructor(duration_histogram),
            queues: Arc::default(),
        };
        registry.register(
            "workqueue_adds",
            "Total number of adds handled by workqueue",
            families.adds.clone(),
        );
        registry.register(
            "workqueue_retries",
            "Total number of items added to the workqueue with a non-zero delay (rate-limited \
             requeues, explicit RequeueAfter or AddAfter calls)",
            families.retries.clone(),
        );
        registry.register_with_unit(
            "workqueue_queue_duration",
            "How long in seconds an item stays in workqueue before being requested",
            Unit::Seconds,
            families.queue_duration.clone(),
        );
        registry.register_with_unit(
            "workqueue_work_duration",
            "How long in seconds processing an item from workqueue takes",
            Unit::Seconds,
            families.work_duration.clone(),
        );
        registry.register_collector(Box::new(QueueGauges(families.queues.clone())));
        families
    }

    /// Adds every delayed item whose time has come, so that a scrape reads the adds counter
    /// and the depth gauge at the same moment.
    pub(super) fn catch_up(&self) {
        let now = Instant::now();
        for queue in lock(&self.queues).iter() {
            queue.state().add_due(now, &queue.inner.adds);
        }
    }

    /// The queue of the controller `name`.
    pub(super) fn queue(&self, name: &str) -> WorkQueue {
        let labels = QueueLabels {
            name: name.to_owned(),
            controller: name.to_owned(),
        };
        let queue = WorkQueue {
            inner: Arc::new(Inner {
                name: name.to_owned(),
                prioritized: AtomicBool::new(false),
                state: Mutex::default(),
                adds: self.adds.get_or_create_owned(&labels),
                retries: self.retries.get_or_create_owned(&labels),
                queue_duration: self.queue_duration.get_or_create_owned(&labels),
                work_duration: self.work_duration.get_or_create_owned(&labels),
            }),
        };
        lock(&self.queues).push(queue.clone());
        queue
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The items of one controller's queue, by key (`namespace/name`). Cheap to clone.
#[derive(Clone, Debug)]
pub struct WorkQueue {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    name: String,
    /// Whether the controller's items are picked by priority (`ControllerKit::run`).
    prioritized: AtomicBool,
    state: Mutex<State>,
    adds: Counter,
    retries: Counter,
    queue_duration: Histogram,
    work_duration: Histogram,
}

/// An item's priority label: `None` on a queue without priorities.
type Label = Option<Priority>;

fn label_text(label: Label) -> &'static str {
    label.map_or("", Priority::label)
}

#[derive(Debug, Default)]
struct State {
    /// Added and not yet picked up, with when they were added and at which priority.
    queued: HashMap<String, (Instant, Label)>,
    /// Being reconciled, since when.
    processing: HashMap<String, Instant>,
    /// To be added when their delay ends, at which priority.
    delayed: HashMap<String, (Instant, Label)>,
}

impl State {
    /// Adds the delayed items whose time has come, as client-go's delaying queue does.
    fn add_due(&mut self, now: Instant, adds: &Counter) {
        let due: Vec<_> = self
            .delayed
            .iter()
            .filter(|(_, (at, _))| *at <= now)
            .map(|(key, queued)| (key.clone(), *queued))
            .collect();
        for (key, queued) in due {
            self.delayed.remove(&key);
            if let Entry::Vacant(slot) = self.queued.entry(key) {
                adds.inc();
                slot.insert(queued);
            }
        }
    }
}

impl WorkQueue {
    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.inner.state)
    }

    /// From now on the items are labelled by priority: the controller picks them by priority.
    pub(crate) fn prioritize(&self) {
        self.inner.prioritized.store(true, Ordering::Relaxed);
    }

    /// The label of an item queued at `priority`: none on a queue without priorities.
    fn label(&self, priority: Priority) -> Label {
        self.inner
            .prioritized
            .load(Ordering::Relaxed)
            .then_some(priority)
    }

    /// A change queued `key` (a repeated add of a queued item is not counted again). A change
    /// also brings a delayed item forward, as kube-runtime's scheduler does.
    pub fn add(&self, key: &str) {
        self.add_at(key, Priority::Normal);
    }

    /// `key` was queued at `priority`: as [`WorkQueue::add`], and an item queued at a lower
    /// priority is raised to it.
    pub fn add_at(&self, key: &str, priority: Priority) {
        let label = self.label(priority);
        let now = Instant::now();
        let mut state = self.state();
        state.add_due(now, &self.inner.adds);
        state.delayed.remove(key);
        match state.queued.entry(key.to_owned()) {
            Entry::Vacant(slot) => {
                self.inner.adds.inc();
                slot.insert((now, label));
            }
            Entry::Occupied(mut queued) => {
                let (_, before) = queued.get_mut();
                *before = (*before).max(label);
            }
        }
    }

    /// `key` is to be added after `delay` (a retry); counted in `workqueue_retries_total`.
    /// kube-runtime runs a retry when it is due, before any queued item: at normal priority.
    pub fn add_after(&self, key: &str, delay: Duration) {
        if delay.is_zero() {
            return self.add(key);
        }
        self.inner.retries.inc();
        let label = self.label(Priority::Normal);
        let at = Instant::now() + delay;
        let mut state = self.state();
        let earliest = state
            .delayed
            .get(key)
            .map_or(at, |(known, _)| at.min(*known));
        state.delayed.insert(key.to_owned(), (earliest, label));
    }

    /// `key`'s object is gone: nothing of it will be reconciled.
    pub fn remove(&self, key: &str) {
        let mut state = self.state();
        state.queued.remove(key);
        state.delayed.remove(key);
    }

    /// A reconcile of `key` starts: the time it waited goes to `workqueue_queue_duration_seconds`.
    /// An item the queue did not see added (a requeue that kube-runtime scheduled itself) is
    /// added now.
    pub fn start(&self, key: &str) {
        let now = Instant::now();
        let mut state = self.state();
        state.add_due(now, &self.inner.adds);
        state.delayed.remove(key);
        let added = match state.queued.remove(key) {
            Some((added, _)) => added,
            None => {
                self.inner.adds.inc();
                now
            }
        };
        self.inner
            .queue_duration
            .observe(now.saturating_duration_since(added).as_secs_f64());
        state.processing.insert(key.to_owned(), now);
    }

    /// The reconcile of `key` ended: its time goes to `workqueue_work_duration_seconds`.
    pub fn done(&self, key: &str) {
        let now = Instant::now();
        if let Some(started) = self.state().processing.remove(key) {
            let took = now.saturating_duration_since(started);
            self.inner.work_duration.observe(took.as_secs_f64());
        }
    }

    /// The gauges now.
    fn gauges(&self) -> Gauges {
        let now = Instant::now();
        let mut state = self.state();
        state.add_due(now, &self.inner.adds);
        let running = state
            .processing
            .values()
            .map(|started| now.saturating_duration_since(*started).as_secs_f64());
        let (unfinished, longest) = running.fold((0.0, 0.0), |(sum, max): (f64, f64), s| {
            (sum + s, max.max(s))
        });
        let labels: &[Label] = if self.inner.prioritized.load(Ordering::Relaxed) {
            &[Some(Priority::Normal), Some(Priority::Low)]
        } else {
            &[None]
        };
        let depth = labels
            .iter()
            .map(|label| {
                let queued = state.queued.values().filter(|(_, l)| l == label).count();
                (label_text(*label), queued)
            })
            .collect();
        Gauges {
            depth,
            unfinished,
            longest,
        }
    }
}

/// What a queue's gauges read at one moment.
struct Gauges {
    /// Items queued, by priority label.
    depth: Vec<(&'static str, usize)>,
    /// Seconds of reconciles running, summed.
    unfinished: f64,
    /// Seconds of the longest running reconcile.
    longest: f64,
}

/// A gauge family in seconds, one series per queue.
fn encode_seconds(
    encoder: &mut DescriptorEncoder,
    metric: &str,
    help: &str,
    gauges: &[(&String, Gauges)],
    value: impl Fn(&Gauges) -> f64,
) -> Result<(), std::fmt::Error> {
    let seconds = Unit::Seconds;
    let mut family = encoder.encode_descriptor(metric, help, Some(&seconds), MetricType::Gauge)?;
    for (name, now) in gauges {
        let labels = QueueLabels {
            name: (*name).clone(),
            controller: (*name).clone(),
        };
        ConstGauge::new(value(now)).encode(family.encode_family(&labels)?)?;
    }
    Ok(())
}

/// `workqueue_depth`, `workqueue_unfinished_work_seconds` and
/// `workqueue_longest_running_processor_seconds`, computed when scraped.
#[derive(Debug)]
struct QueueGauges(Arc<Mutex<Vec<WorkQueue>>>);

impl Collector for QueueGauges {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let queues = lock(&self.0).clone();
        let gauges: Vec<_> = queues.iter().map(|q| (&q.inner.name, q.gauges())).collect();
        let mut depth = encoder.encode_descriptor(
            "workqueue_depth",
            "Current depth of workqueue by workqueue and priority",
            None,
            MetricType::Gauge,
        )?;
        for (name, now) in &gauges {
            for (priority, queued) in &now.depth {
                let labels = DepthLabels {
                    name: (*name).clone(),
                    controller: (*name).clone(),
                    priority,
                };
                ConstGauge::new(*queued as i64).encode(depth.encode_family(&labels)?)?;
            }
        }
        encode_seconds(
            &mut encoder,
            "workqueue_unfinished_work",
            "How many seconds of work has been done that is in progress and hasn't been observed \
             by work_duration. Large values indicate stuck threads. One can deduce the number of \
             stuck threads by observing the rate at which this increases.",
            &gauges,
            |g| g.unfinished,
        )?;
        encode_seconds(
            &mut encoder,
            "workqueue_longest_running_processor",
            "How many seconds has the longest running processor for workqueue been running.",
            &gauges,
            |g| g.longest,
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
