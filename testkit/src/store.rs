//! The object store: objects by key in etcd's key order, one cluster-wide resourceVersion
//! counter, the change history watches resume from, and the open watches themselves.
//!
//! Every mutation goes through [`Store::commit`], which assigns the next resourceVersion, records
//! the change and fans it out to watches while the caller holds the server lock, so every watch
//! sees every change exactly once and in resourceVersion order.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::change::Change;
pub use super::change::{ChangeKind, ObjectKey};
use super::status::{ApiError, ApiResult};
pub use super::watches::{WatchMessage, WatchSpec};
use super::watches::{Watcher, Watchers, event_for};

/// The objects, their history and the open watches.
pub struct Store {
    objects: BTreeMap<ObjectKey, Value>,
    uids: HashMap<String, ObjectKey>,
    revision: u64,
    history: VecDeque<Change>,
    history_limit: usize,
    /// Watches may resume from any resourceVersion at or after this one.
    oldest_resumable: u64,
    watchers: Watchers,
    uid_counter: u64,
}

impl Store {
    /// An empty store keeping `history_limit` changes for watch resumption.
    pub fn new(history_limit: usize) -> Self {
        Self {
            objects: BTreeMap::new(),
            uids: HashMap::new(),
            revision: 1,
            history: VecDeque::new(),
            history_limit,
            oldest_resumable: 1,
            watchers: Watchers::default(),
            uid_counter: 0,
        }
    }

    /// The latest resourceVersion.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// A fresh UID, deterministic per server so test runs repeat.
    pub fn new_uid(&mut self) -> String {
        self.uid_counter += 1;
        let n = self.uid_counter;
        format!("00000000-0000-4000-8000-{n:012x}")
    }

    /// An object by key.
    pub fn get(&self, key: &ObjectKey) -> Option<&Value> {
        self.objects.get(key)
    }

    /// The key of the object with a UID.
    pub fn key_of_uid(&self, uid: &str) -> Option<&ObjectKey> {
        self.uids.get(uid)
    }

    /// Objects of one type (and namespace), in key order, optionally only those after a
    /// `(namespace, name)` position (where a previous list page ended).
    pub fn range<'a>(
        &'a self,
        group: &'a str,
        plural: &'a str,
        namespace: Option<&'a str>,
        after: Option<(&str, &str)>,
    ) -> impl Iterator<Item = (&'a ObjectKey, &'a Value)> + 'a {
        let key = |ns: &str, name: &str| ObjectKey {
            group: group.to_string(),
            plural: plural.to_string(),
            namespace: ns.to_string(),
            name: name.to_string(),
        };
        let start = match after {
            Some((ns, name)) => Bound::Excluded(key(ns, name)),
            None => Bound::Included(key(namespace.unwrap_or(""), "")),
        };
        self.objects
            .range((start, Bound::Unbounded))
            .take_while(move |(k, _)| {
                k.group == group
                    && k.plural == plural
                    && namespace.is_none_or(|ns| k.namespace == ns)
            })
    }

    /// Objects of one type (and namespace) as they were at `revision`, rebuilt by undoing the
    /// later changes: what a continued list or an `Exact` list reads. The caller checks first
    /// that `revision` is still in history ([`Store::check_resumable`]).
    pub fn range_at(
        &self,
        group: &str,
        plural: &str,
        namespace: Option<&str>,
        after: Option<(&str, &str)>,
        revision: u64,
    ) -> Vec<(ObjectKey, Value)> {
        let mut view: BTreeMap<ObjectKey, Value> = self
            .range(group, plural, namespace, after)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let later = self
            .history
            .iter()
            .rev()
            .take_while(|c| c.revision > revision);
        for change in later {
            let key = &change.key;
            let before_start = after.is_some_and(|(ns, name)| {
                (key.namespace.as_str(), key.name.as_str()) <= (ns, name)
            });
            if key.group != group
                || key.plural != plural
                || namespace.is_some_and(|ns| ns != key.namespace)
                || before_start
            {
                continue;
            }
            match &change.previous {
                Some(previous) => view.insert(key.clone(), (**previous).clone()),
                None => view.remove(key),
            };
        }
        view.into_iter().collect()
    }

    /// Every object (for garbage collection sweeps).
    pub fn all(&self) -> impl Iterator<Item = (&ObjectKey, &Value)> {
        self.objects.iter()
    }

    /// Stores a new or changed object (stamping the next resourceVersion) or removes one, records
    /// the change and notifies watches. Returns the object as stored (for deletes: as last seen,
    /// with the deletion's resourceVersion).
    pub fn commit(&mut self, kind: ChangeKind, key: ObjectKey, mut object: Value) -> Value {
        self.revision += 1;
        let revision = self.revision;
        object["metadata"]["resourceVersion"] = json!(revision.to_string());
        let uid = object
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .map(ToString::to_string);
        let previous = match kind {
            ChangeKind::Deleted => {
                if let Some(uid) = &uid {
                    self.uids.remove(uid);
                }
                self.objects.remove(&key)
            }
            ChangeKind::Added | ChangeKind::Modified => {
                if let Some(uid) = uid {
                    self.uids.insert(uid, key.clone());
                }
                self.objects.insert(key.clone(), object.clone())
            }
        };
        let change = Change {
            revision,
            kind,
            key,
            object: Arc::new(object.clone()),
            previous: previous.map(Arc::new),
        };
        self.watchers.fan_out(&change);
        self.history.push_back(change);
        while self.history.len() > self.history_limit {
            if let Some(dropped) = self.history.pop_front() {
                self.oldest_resumable = dropped.revision;
            }
        }
        object
    }

    /// Opens a watch: registers it and returns the events it must first replay (history after
    /// `since`, or the current state as `ADDED`), atomically with respect to commits.
    pub fn watch(&mut self, spec: WatchSpec) -> ApiResult<mpsc::UnboundedReceiver<WatchMessage>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let watcher = Watcher {
            group: spec.group,
            plural: spec.plural,
            namespace: spec.namespace,
            filter: spec.filter,
            bookmarks: spec.bookmarks,
            sender,
        };
        match spec.since {
            Some(since) => {
                if since < self.oldest_resumable {
                    // As the API server does: the watch is established, then its only event is
                    // an ERROR carrying 410 Gone, which tells clients to relist.
                    let gone = ApiError::gone(format!(
                        "too old resource version: {since} ({})",
                        self.oldest_resumable
                    ));
                    let _ = watcher.sender.send(WatchMessage::Error(gone.to_status()));
                    return Ok(receiver);
                }
                for change in self
                    .history
                    .iter()
                    .filter(|c| c.revision > since && watcher.covers(&c.key))
                {
                    if let Some(message) = event_for(&watcher, change) {
                        let _ = watcher.sender.send(message);
                    }
                }
            }
            None => {
                let objects = self
                    .range(
                        &watcher.group,
                        &watcher.plural,
                        watcher.namespace.as_deref(),
                        None,
                    )
                    .filter(|(_, o)| watcher.filter.matches(o));
                for (_, object) in objects {
                    let _ = watcher.sender.send(WatchMessage::Event(
                        ChangeKind::Added,
                        Arc::new(object.clone()),
                    ));
                }
                if spec.initial_events_end && watcher.bookmarks {
                    let _ = watcher.sender.send(WatchMessage::Bookmark {
                        revision: self.revision,
                        initial_end: true,
                    });
                }
            }
        }
        self.watchers.push(watcher);
        Ok(receiver)
    }

    /// Checks that a resourceVersion used as a list/continue position is still in history.
    pub fn check_resumable(&self, revision: u64, what: &str) -> ApiResult<()> {
        if revision < self.oldest_resumable {
            return Err(ApiError::gone(format!(
                "{what}: too old resource version: {revision} ({})",
                self.oldest_resumable
            )));
        }
        Ok(())
    }

    /// Sends a `BOOKMARK` at the current resourceVersion to every watch that asked for them.
    pub fn bookmark_all(&mut self) {
        self.watchers.bookmark_all(self.revision);
    }

    /// Ends every open watch, as an API server restart or a load balancer timeout would.
    pub fn drop_watches(&mut self) -> usize {
        self.watchers.clear()
    }

    /// Ends the watches of one resource type (its CRD was deleted).
    pub fn drop_watches_of(&mut self, group: &str, plural: &str) {
        self.watchers.drop_of(group, plural);
    }

    /// Forgets all history, as etcd compaction does: watches from any older resourceVersion then
    /// get 410 Gone and clients must relist.
    pub fn compact(&mut self) {
        self.history.clear();
        self.oldest_resumable = self.revision;
    }

    /// Number of open watches.
    pub fn watch_count(&mut self) -> usize {
        self.watchers.count()
    }
}
