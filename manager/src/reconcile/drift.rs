//! Whether a child as the cache holds it is exactly what its owner would apply, read from two
//! things the API server keeps: the child's values, and the fields the owner's field manager
//! owns through server-side apply (its `Apply` entry in `metadata.managedFields`).
//!
//! Values alone cannot tell: a field the owner stopped setting is still there (the subset
//! check passes), and a zero value someone deleted looks like an omitted one. Ownership can: the
//! API server takes a field from a manager when anyone else changes or removes it, and keeps in
//! the manager's set exactly the fields of its last applied configuration. So a child is in sync
//! when the owned fields are the desired object's fields, path for path, and the live values
//! carry every desired value ([`contains`]). Neither costs a request: both come from the cache.
//!
//! What apply cannot repair is an entry another manager added to a list the owner fills (a
//! second Service port, a second container port): apply keeps it, and if it collides with the
//! owner's entry (a duplicate port name) the API server refuses the apply. [`Drift::foreign_lists`]
//! names those lists, so that the owner can replace them first.

use serde_json::{Map, Value};

use crate::applied::contains;

/// Metadata the API server never records as owned: identity and bookkeeping.
const BOOKKEEPING: [&str; 9] = [
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "generateName",
];

/// The fields that identify an item of a list the API server merges by key, in Kubernetes'
/// built-in kinds, most specific first: container ports by port and protocol, Service ports
/// likewise (they have a `name` too, but are keyed by port), owner references by uid, mounts
/// by path, the rest (containers, env, volumes) by name, conditions by type.
const LIST_KEYS: [&[&str]; 6] = [
    &["containerPort", "protocol"],
    &["port", "protocol"],
    &["uid"],
    &["mountPath"],
    &["name"],
    &["type"],
];

/// What a reconcile must do to bring a cached child to the desired one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Drift {
    /// Nothing: the child carries exactly the desired fields, owned by the field manager.
    pub in_sync: bool,
    /// Lists (paths of field names from the root) where someone else added items the desired
    /// object does not have: apply cannot remove them, so they are replaced first.
    pub foreign_lists: Vec<Vec<String>>,
}

impl Drift {
    /// Compares `live` (a cached child, with its managed fields) with `desired`, the object
    /// `field_manager` applies.
    pub fn of(desired: &Value, live: &Value, field_manager: &str) -> Self {
        let desired = owned_part(desired);
        let owned = applied_fields(live, field_manager);
        let mut foreign_lists = Vec::new();
        foreign(&desired, live, owned, &mut Vec::new(), &mut foreign_lists);
        let in_sync = foreign_lists.is_empty()
            && contains(live, &desired)
            && owned.is_some_and(|owned| same_fields(owned, &desired));
        Drift {
            in_sync,
            foreign_lists,
        }
    }
}

/// The `fieldsV1` of `field_manager`'s apply entry on the main resource, if it has one.
pub fn applied_fields<'a>(live: &'a Value, field_manager: &str) -> Option<&'a Value> {
    live.pointer("/metadata/managedFields")?
        .as_array()?
        .iter()
        .find(|entry| is_apply_entry(entry, field_manager))?
        .get("fieldsV1")
}

/// Whether `entry` of `managedFields` is `field_manager`'s server-side apply to the main resource.
pub fn is_apply_entry(entry: &Value, field_manager: &str) -> bool {
    entry.get("manager").and_then(Value::as_str) == Some(field_manager)
        && entry.get("operation").and_then(Value::as_str) == Some("Apply")
        && entry.get("subresource").is_none()
}

/// `desired` without what is never owned: `apiVersion`, `kind`, metadata bookkeeping, nulls.
fn owned_part(desired: &Value) -> Value {
    let mut desired = without_nulls(desired);
    if let Some(object) = desired.as_object_mut() {
        object.remove("apiVersion");
        object.remove("kind");
        object.remove("status");
        if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            for field in BOOKKEEPING {
                metadata.remove(field);
            }
        }
    }
    desired
}

fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// Whether the owned fields (`fieldsV1`) are exactly the fields of `desired`. A node owned whole
/// (an atomic map or list, an item of an atomic map type) has no children in `fieldsV1`.
fn same_fields(owned: &Value, desired: &Value) -> bool {
    let children: Vec<(&String, &Value)> = owned
        .as_object()
        .map(|m| m.iter().filter(|(k, _)| k.as_str() != ".").collect())
        .unwrap_or_default();
    if children.is_empty() {
        return true;
    }
    match desired {
        Value::Object(fields) => {
            children.len() == fields.len()
                && children.iter().all(|(element, node)| {
                    element
                        .strip_prefix("f:")
                        .and_then(|name| fields.get(name))
                        .is_some_and(|value| same_fields(node, value))
                })
        }
        Value::Array(items) => {
            if children
                .iter()
                .all(|(element, _)| element.starts_with("v:"))
            {
                let values: Vec<Value> = children
                    .iter()
                    .filter_map(|(e, _)| serde_json::from_str(&e[2..]).ok())
                    .collect();
                return values.len() == items.len() && items.iter().all(|i| values.contains(i));
            }
            children.len() == items.len()
                && children.iter().all(|(element, node)| {
                    let Some(key) = element
                        .strip_prefix("k:")
                        .and_then(|k| serde_json::from_str::<Map<String, Value>>(k).ok())
                    else {
                        return false;
                    };
                    let mut matching = items.iter().filter(|item| has_key(item, &key));
                    match (matching.next(), matching.next()) {
                        (Some(item), None) => same_fields(node, item),
                        _ => false,
                    }
                })
        }
        // A scalar owns no children.
        _ => false,
    }
}

/// Whether `item` has every field of `key` with its value (numbers by value).
fn has_key(item: &Value, key: &Map<String, Value>) -> bool {
    key.iter().all(|(field, value)| match item.get(field) {
        Some(own) => contains(own, value) && contains(value, own),
        // The API server defaults a port's protocol, and keys by the defaulted value.
        None => field == "protocol" && value == "TCP",
    })
}

/// Collects the lists of `desired` (reached through fields and items of merged lists) whose live
/// copy has items that match no desired one and that the field manager does not own (`owned`:
/// its `fieldsV1` at this node). Its own old items are not foreign: apply removes them.
fn foreign(
    desired: &Value,
    live: &Value,
    owned: Option<&Value>,
    path: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    match (desired, live) {
        (Value::Object(desired), Value::Object(live)) => {
            for (field, value) in desired {
                if let Some(live) = live.get(field) {
                    let owned = owned.and_then(|o| o.get(format!("f:{field}")));
                    path.push(field.clone());
                    foreign(value, live, owned, path, out);
                    path.pop();
                }
            }
        }
        (Value::Array(desired), Value::Array(live)) => {
            let Some(keys) = list_keys(desired) else {
                return;
            };
            // A merge patch replaces lists whole, so drift inside an item (a foreign port of a
            // container) makes this list the one to replace.
            let drifted = live.iter().any(|item| {
                let own = owned_item(owned, item);
                match desired.iter().find(|d| same_item(d, item, keys)) {
                    None => own.is_none(),
                    Some(d) => {
                        let mut inner = Vec::new();
                        foreign(d, item, own, &mut Vec::new(), &mut inner);
                        !inner.is_empty()
                    }
                }
            });
            if drifted {
                out.push(path.clone());
            }
        }
        _ => {}
    }
}

/// The `fieldsV1` node of the list item `item`, if the field manager owns it.
fn owned_item<'a>(owned: Option<&'a Value>, item: &Value) -> Option<&'a Value> {
    owned?.as_object()?.iter().find_map(|(element, node)| {
        let key = element.strip_prefix("k:")?;
        let key: Map<String, Value> = serde_json::from_str(key).ok()?;
        has_key(item, &key).then_some(node)
    })
}

/// The key fields every item of `items` has, if they are objects of a merged list.
fn list_keys(items: &[Value]) -> Option<&'static [&'static str]> {
    LIST_KEYS.into_iter().find(|keys| {
        items.iter().all(|item| {
            item.is_object()
                && keys
                    .iter()
                    .filter(|key| **key != "protocol")
                    .all(|key| item.get(*key).is_some())
        })
    })
}

fn same_item(desired: &Value, live: &Value, keys: &[&str]) -> bool {
    keys.iter()
        .all(|key| match (desired.get(*key), live.get(*key)) {
            (Some(d), Some(l)) => contains(l, d) && contains(d, l),
            (None, Some(l)) => *key == "protocol" && l == "TCP",
            (Some(d), None) => *key == "protocol" && d == "TCP",
            (None, None) => true,
        })
}

/// `desired`'s value at `path` (field names from the root), for a patch that replaces it.
pub fn at_path<'a>(desired: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(desired, |node, field| node.get(field))
}

#[cfg(test)]
mod tests;
