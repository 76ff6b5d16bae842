//! `metadata.managedFields`: which manager owns which fields, updated on every write as the API
//! server's field manager does, for `Apply` and `Update` operations alike.

use serde_json::{Value, json};

use super::fieldset::{self, FieldSet};
use crate::shape::Shape;

/// The identity of a field manager entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manager {
    /// `fieldManager` (or the user agent's program name).
    pub name: String,
    /// Server-side apply or any other write.
    pub apply: bool,
    /// The apiVersion the manager wrote with.
    pub api_version: String,
    /// `status` for writes to the status subresource.
    pub subresource: Option<String>,
}

/// One `managedFields` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Who.
    pub manager: Manager,
    /// When (RFC 3339, seconds).
    pub time: String,
    /// What it owns.
    pub fields: FieldSet,
}

impl Entry {
    /// Whether this entry belongs to `manager`. Apply entries are one per manager and
    /// subresource; update entries also differ by apiVersion.
    pub fn is(&self, manager: &Manager) -> bool {
        self.manager.name == manager.name
            && self.manager.apply == manager.apply
            && self.manager.subresource == manager.subresource
            && (manager.apply || self.manager.api_version == manager.api_version)
    }

    /// How Kubernetes names this manager in a conflict message (an update manager by its
    /// apiVersion: the identifier the API server decodes carries no time).
    pub fn describe(&self) -> String {
        let mut out = format!("{:?}", self.manager.name);
        if let Some(sub) = &self.manager.subresource {
            out.push_str(&format!(" with subresource {sub:?}"));
        }
        if !self.manager.apply {
            out.push_str(&format!(" using {}", self.manager.api_version));
        }
        out
    }
}

/// Metadata fields that are bookkeeping, never owned: identity, versioning, managedFields.
pub const BOOKKEEPING_METADATA: [&str; 11] = [
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "generateName",
];

/// The object without its bookkeeping fields (`apiVersion`, `kind`, [`BOOKKEEPING_METADATA`]).
pub fn strip_bookkeeping(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        map.remove("apiVersion");
        map.remove("kind");
    }
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        for field in BOOKKEEPING_METADATA {
            meta.remove(field);
        }
        if meta.is_empty() {
            object.as_object_mut().map(|m| m.remove("metadata"));
        }
    }
    object
}

/// Reads `metadata.managedFields`.
pub fn read(object: &Value) -> Vec<Entry> {
    let Some(entries) = object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    entries
        .iter()
        .map(|e| Entry {
            manager: Manager {
                name: e
                    .get("manager")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                apply: e.get("operation").and_then(Value::as_str) == Some("Apply"),
                api_version: e
                    .get("apiVersion")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                subresource: e
                    .get("subresource")
                    .and_then(Value::as_str)
                    .map(ToString::to_string),
            },
            time: e
                .get("time")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            fields: e
                .get("fieldsV1")
                .map(FieldSet::from_fields_v1)
                .unwrap_or_default(),
        })
        .collect()
}

/// Writes entries to `metadata.managedFields`, dropping the ones that own nothing.
pub fn write(object: &mut Value, entries: &[Entry]) {
    let list: Vec<Value> = entries
        .iter()
        .filter(|e| !e.fields.is_empty())
        .map(|e| {
            let mut entry = json!({
                "manager": e.manager.name,
                "operation": if e.manager.apply { "Apply" } else { "Update" },
                "apiVersion": e.manager.api_version,
                "time": e.time,
                "fieldsType": "FieldsV1",
                "fieldsV1": e.fields.to_fields_v1(),
            });
            if let Some(sub) = &e.manager.subresource {
                entry["subresource"] = json!(sub);
            }
            entry
        })
        .collect();
    if !object.get("metadata").is_some_and(Value::is_object) && !list.is_empty() {
        object["metadata"] = json!({});
    }
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        if list.is_empty() {
            meta.remove("managedFields");
        } else {
            meta.insert("managedFields".to_string(), Value::Array(list));
        }
    }
}

/// Records a non-apply write: the writer takes ownership of every field it changed, other
/// managers lose those fields, and removed fields leave every set.
pub fn record_update(
    old: Option<&Value>,
    new: &mut Value,
    manager: &Manager,
    shape: Shape<'_>,
    now: &str,
) {
    // As the API server: managed fields the request sets are the base (a client may rewrite
    // them), unless it sets none or writes a subresource.
    let provided = read(new);
    let mut entries = if provided.is_empty() || manager.subresource.is_some() {
        old.map(read).unwrap_or_default()
    } else {
        provided
    };
    let before = old.map(strip_bookkeeping).unwrap_or_else(|| json!({}));
    let after = strip_bookkeeping(new);
    let diff = fieldset::diff(&before, &after, shape);
    if diff.changed.is_empty() && diff.removed.is_empty() {
        write(new, &entries);
        return;
    }
    for entry in entries.iter_mut() {
        entry.fields.remove_all(&diff.removed);
        if !entry.is(manager) {
            entry.fields.remove_all(&diff.changed);
        }
    }
    match entries.iter_mut().find(|e| e.is(manager)) {
        Some(entry) => {
            entry.fields.extend(&diff.changed);
            entry.time = now.to_string();
        }
        None if !diff.changed.is_empty() => {
            entries.push(Entry {
                manager: manager.clone(),
                time: now.to_string(),
                fields: diff.changed,
            });
        }
        None => {}
    }
    write(new, &entries);
}
