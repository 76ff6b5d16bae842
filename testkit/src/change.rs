//! What the store records: where an object lives ([`ObjectKey`]) and what happened to it
//! ([`Change`]), which watches are told and resume from.

use std::sync::Arc;

use serde_json::Value;

use super::resources::ResourceType;

/// Where an object lives: its resource type, namespace and name. Ordered as etcd keys are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    /// API group of the type.
    pub group: String,
    /// Resource plural of the type.
    pub plural: String,
    /// Namespace, empty for cluster-scoped objects.
    pub namespace: String,
    /// Object name.
    pub name: String,
}

impl ObjectKey {
    /// The key of the object `name` of a type (in `namespace` if the type is namespaced).
    pub fn of(resource_type: &ResourceType, namespace: Option<&str>, name: &str) -> Self {
        ObjectKey {
            group: resource_type.group.clone(),
            plural: resource_type.plural.clone(),
            namespace: if resource_type.namespaced {
                namespace.unwrap_or_default().to_string()
            } else {
                String::new()
            },
            name: name.to_string(),
        }
    }
}

/// What happened to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Created.
    Added,
    /// Updated.
    Modified,
    /// Removed.
    Deleted,
}

impl ChangeKind {
    /// Watch event type.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "ADDED",
            Self::Modified => "MODIFIED",
            Self::Deleted => "DELETED",
        }
    }
}

/// One recorded change.
#[derive(Debug, Clone)]
pub struct Change {
    pub revision: u64,
    pub kind: ChangeKind,
    pub key: ObjectKey,
    pub object: Arc<Value>,
    pub previous: Option<Arc<Value>>,
}
