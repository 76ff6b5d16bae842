//! What the server lock guards ([`State`]: served types, objects, the admission point) and what
//! every handle to one server shares besides it ([`Shared`]: the lock, faults, counters).

use std::sync::{Mutex, MutexGuard, PoisonError};

use serde_json::{Value, json};

use super::discovery::Catalog;
use super::faults::{Counters, Faults};
use super::objects;
use super::store::{ChangeKind, ObjectKey, Store};

/// Everything behind the server lock.
pub struct State {
    /// Served types.
    pub catalog: Catalog,
    /// Objects, history, watches.
    pub store: Store,
    /// The counter `generateName` suffixes derive from.
    pub name_seed: u64,
    /// The object (and the stored one) where a staged write stopped for admission.
    pub admission_stop: Option<(Value, Option<Value>)>,
    /// The webhooks writes go through and conversions use ([`crate::ApiServer::with_webhooks`]).
    #[cfg(feature = "webhook")]
    pub webhooks: Option<std::sync::Arc<webop_core::webhook::Webhooks>>,
}

impl State {
    /// A server state with the default namespaces.
    pub fn new(history_limit: usize) -> Self {
        let mut state = Self {
            catalog: Catalog::default(),
            store: Store::new(history_limit),
            name_seed: 0,
            admission_stop: None,
            #[cfg(feature = "webhook")]
            webhooks: None,
        };
        for name in ["default", "kube-system", "kube-public", "kube-node-lease"] {
            let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}});
            let key = ObjectKey {
                group: String::new(),
                plural: "namespaces".into(),
                namespace: String::new(),
                name: name.into(),
            };
            let mut namespace = namespace;
            namespace["metadata"]["uid"] = json!(state.store.new_uid());
            namespace["metadata"]["creationTimestamp"] = json!(objects::now());
            state.store.commit(ChangeKind::Added, key, namespace);
        }
        state
    }
}

/// What every handle to one server shares.
pub(crate) struct Shared {
    pub(crate) state: Mutex<State>,
    pub(crate) faults: Faults,
    pub(crate) counters: Counters,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
