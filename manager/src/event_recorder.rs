//! [`EventRecorder`]: events.k8s.io/v1 Events, repeats counted as a series as client-go's
//! `tools/events` counts them, in bounded memory.
//!
//! kube's `Recorder` keeps every event it recorded for six minutes, whole (the Event and its
//! key, a few KiB each), and scans them all on every publish. An operator that records one event
//! per change holds thousands of them when every object changes at once: at 10,000 WebApps that
//! was a third of its memory. This recorder keeps only what continuing a series takes (the
//! Event's name and its count), for the 4,096 most recent events (the size of client-go's event
//! correlator cache), each for six minutes after it was last seen.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::{Event as K8sEvent, EventSeries};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Patch, PatchParams, PostParams};
use kube::runtime::events::{Event, EventType, Reporter};
use kube::{Api, Client};
use lru::LruCache;
use serde_json::json;
use tokio::time::Instant;

/// How many recent events are remembered to continue their series (client-go's
/// `maxLruCacheEntries`).
const REMEMBERED_EVENTS: NonZeroUsize = NonZeroUsize::new(4096).unwrap();

/// How long after its last occurrence a repeat still continues an event's series (kube's and
/// client-go's six minutes).
const SERIES_WINDOW: Duration = Duration::from_secs(6 * 60);

/// Records events about objects as `reporter`; cheap to clone (the clones share the recent
/// events). Its `publish` is kube's `Recorder::publish`.
#[derive(Clone)]
pub struct EventRecorder {
    client: Client,
    reporter: Reporter,
    recent: Arc<Mutex<LruCache<Box<str>, Recent>>>,
}

/// A recorded event whose repeats are counted on it.
struct Recent {
    name: Box<str>,
    count: i32,
    last_seen: Instant,
}

impl EventRecorder {
    pub fn new(client: Client, reporter: Reporter) -> Self {
        EventRecorder {
            client,
            reporter,
            recent: Arc::new(Mutex::new(LruCache::new(REMEMBERED_EVENTS))),
        }
    }

    /// Records `event` about `regarding`. The same event (type, reason, action, regarding and
    /// related object) again within six minutes of its last occurrence counts on the first
    /// one's series, keeping its note, as with kube's and client-go's recorders.
    ///
    /// Boxed, so that its code (the requests, the Event's JSON) is compiled here once: an
    /// operator crate that awaited this crate's future itself would compile it again.
    pub fn publish<'a>(
        &'a self,
        event: &'a Event,
        regarding: &'a ObjectReference,
    ) -> BoxFuture<'a, Result<(), kube::Error>> {
        self.record(event, regarding).boxed()
    }

    async fn record(&self, event: &Event, regarding: &ObjectReference) -> Result<(), kube::Error> {
        let key = key_of(event, regarding);
        let events = Api::<K8sEvent>::namespaced(self.client.clone(), &namespace_of(regarding));
        if let Some(repeat) = self.count_repeat(&key) {
            let series = json!({"series": EventSeries {
                count: repeat.count,
                last_observed_time: MicroTime(Timestamp::now()),
            }});
            match events
                .patch(
                    &repeat.name,
                    &PatchParams::default(),
                    &Patch::Merge(&series),
                )
                .await
            {
                // The API server let the Event expire (its TTL is an hour): start anew.
                Err(kube::Error::Api(status)) if status.code == 404 => {}
                outcome => return outcome.map(drop),
            }
        }
        let created = self.new_event(event, regarding);
        let name = created.metadata.name.clone().unwrap_or_default();
        events.create(&PostParams::default(), &created).await?;
        let recent = Recent {
            name: name.into(),
            count: 1,
            last_seen: Instant::now(),
        };
        self.lock().put(key, recent);
        Ok(())
    }

    /// How many events are remembered to continue their series.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        let mut recent = self.lock();
        forget_expired(&mut recent, Instant::now());
        recent.len()
    }

    /// The series to continue for `key`, its count already incremented, if it was seen within
    /// the window.
    fn count_repeat(&self, key: &str) -> Option<Repeat> {
        let now = Instant::now();
        let mut recent = self.lock();
        forget_expired(&mut recent, now);
        let seen = recent.get_mut(key)?;
        seen.count += 1;
        seen.last_seen = now;
        Some(Repeat {
            name: seen.name.to_string(),
            count: seen.count.max(2),
        })
    }

    fn new_event(&self, event: &Event, regarding: &ObjectReference) -> K8sEvent {
        let now = Timestamp::now();
        let controller = &self.reporter.controller;
        K8sEvent {
            metadata: ObjectMeta {
                namespace: Some(namespace_of(regarding)),
                name: Some(format!(
                    "{}.{:x}",
                    regarding.name.as_deref().unwrap_or(controller),
                    now.as_nanosecond()
                )),
                ..ObjectMeta::default()
            },
            action: Some(event.action.clone()),
            reason: Some(event.reason.clone()),
            note: event.note.clone(),
            type_: Some(type_name(event.type_).to_owned()),
            event_time: Some(MicroTime(now)),
            regarding: Some(regarding.clone()),
            related: event.secondary.clone(),
            reporting_controller: Some(controller.clone()),
            reporting_instance: Some(self.reporter.instance.clone().unwrap_or(controller.clone())),
            ..K8sEvent::default()
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<Box<str>, Recent>> {
        self.recent.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct Repeat {
    name: String,
    count: i32,
}

/// Drops the events last seen over the window ago: the least recently seen come first.
fn forget_expired(recent: &mut LruCache<Box<str>, Recent>, now: Instant) {
    while recent
        .peek_lru()
        .is_some_and(|(_, seen)| now.duration_since(seen.last_seen) >= SERIES_WINDOW)
    {
        recent.pop_lru();
    }
}

/// Where events about `regarding` go: its namespace, or `default` for a cluster-scoped object,
/// as with kube's and client-go's recorders.
fn namespace_of(regarding: &ObjectReference) -> String {
    regarding.namespace.clone().unwrap_or("default".to_owned())
}

fn type_name(type_: EventType) -> &'static str {
    match type_ {
        EventType::Normal => "Normal",
        EventType::Warning => "Warning",
    }
}

/// What makes two events the same: their type, reason and action and the objects they are
/// about, as one string (the recorder's own controller and instance are the same for all).
fn key_of(event: &Event, regarding: &ObjectReference) -> Box<str> {
    let mut key = format!(
        "{}\0{}\0{}",
        type_name(event.type_),
        event.reason,
        event.action
    );
    for reference in std::iter::once(regarding).chain(event.secondary.as_ref()) {
        for field in [
            &reference.api_version,
            &reference.kind,
            &reference.namespace,
            &reference.name,
            &reference.uid,
            &reference.resource_version,
            &reference.field_path,
        ] {
            key.push('\0');
            key.push_str(field.as_deref().unwrap_or_default());
        }
    }
    key.into_boxed_str()
}

#[cfg(test)]
mod tests;
