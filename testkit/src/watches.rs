//! The open watches of the store: what each asked for, and what it is sent for a change.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use super::change::{Change, ChangeKind, ObjectKey};
use super::selectors::Filter;

/// What a watch receives.
#[derive(Debug, Clone)]
pub enum WatchMessage {
    /// An `ADDED`, `MODIFIED` or `DELETED` event.
    Event(ChangeKind, Arc<Value>),
    /// A `BOOKMARK` at a resourceVersion; `initial_end` marks the end of `sendInitialEvents`.
    Bookmark { revision: u64, initial_end: bool },
    /// An `ERROR` event carrying a `Status` (410 Gone when history runs out mid-stream).
    Error(Value),
}

/// One open watch.
pub struct Watcher {
    pub group: String,
    pub plural: String,
    pub namespace: Option<String>,
    pub filter: Filter,
    pub bookmarks: bool,
    pub sender: mpsc::UnboundedSender<WatchMessage>,
}

impl Watcher {
    /// Whether the watch is on the type (and namespace) of `key`.
    pub fn covers(&self, key: &ObjectKey) -> bool {
        self.group == key.group
            && self.plural == key.plural
            && self
                .namespace
                .as_ref()
                .is_none_or(|ns| *ns == key.namespace)
    }
}

/// What a new watch asks for.
#[derive(Debug, Clone)]
pub struct WatchSpec {
    /// Group of the watched type.
    pub group: String,
    /// Plural of the watched type.
    pub plural: String,
    /// Namespace, or all.
    pub namespace: Option<String>,
    /// Selectors.
    pub filter: Filter,
    /// Start after this resourceVersion; `None` replays the current state as `ADDED` events.
    pub since: Option<u64>,
    /// `allowWatchBookmarks`.
    pub bookmarks: bool,
    /// `sendInitialEvents=true`: end the replay with an `initial-events-end` bookmark.
    pub initial_events_end: bool,
}

/// Every open watch, in the order they were opened.
#[derive(Default)]
pub struct Watchers(Vec<Watcher>);

impl Watchers {
    /// Adds a watch that has replayed what it had to.
    pub fn push(&mut self, watcher: Watcher) {
        self.0.push(watcher);
    }

    /// Tells every watch of the changed object's type what it sees of the change; forgets the
    /// watches whose receiver is gone.
    pub fn fan_out(&mut self, change: &Change) {
        self.0.retain(|w| {
            if !w.covers(&change.key) {
                return true;
            }
            match event_for(w, change) {
                Some(message) => w.sender.send(message).is_ok(),
                None => !w.sender.is_closed(),
            }
        });
    }

    /// Sends a `BOOKMARK` at `revision` to every watch that asked for them.
    pub fn bookmark_all(&mut self, revision: u64) {
        self.0.retain(|w| {
            !w.bookmarks
                || w.sender
                    .send(WatchMessage::Bookmark {
                        revision,
                        initial_end: false,
                    })
                    .is_ok()
        });
    }

    /// Ends every watch; how many there were.
    pub fn clear(&mut self) -> usize {
        let count = self.0.len();
        self.0.clear();
        count
    }

    /// Ends the watches of one resource type.
    pub fn drop_of(&mut self, group: &str, plural: &str) {
        self.0.retain(|w| !(w.group == group && w.plural == plural));
    }

    /// Number of watches whose receiver is still there.
    pub fn count(&mut self) -> usize {
        self.0.retain(|w| !w.sender.is_closed());
        self.0.len()
    }
}

/// The event a watcher gets for a change, accounting for objects moving into or out of its
/// selectors (`ADDED`/`DELETED`, as the API server's watch cache sends).
pub fn event_for(watcher: &Watcher, change: &Change) -> Option<WatchMessage> {
    let now = watcher.filter.matches(&change.object);
    let before = change
        .previous
        .as_ref()
        .is_some_and(|p| watcher.filter.matches(p));
    let kind = match change.kind {
        ChangeKind::Added if now => ChangeKind::Added,
        ChangeKind::Deleted if before || now => ChangeKind::Deleted,
        ChangeKind::Modified if now && before => ChangeKind::Modified,
        ChangeKind::Modified if now => ChangeKind::Added,
        ChangeKind::Modified if before => ChangeKind::Deleted,
        _ => return None,
    };
    Some(WatchMessage::Event(kind, change.object.clone()))
}
