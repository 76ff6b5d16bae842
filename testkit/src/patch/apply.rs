//! Server-side apply: merging an applied configuration into the live object by the type's merge
//! rules, detecting conflicts with other managers' fields, taking them over with `force`, and
//! removing fields the manager applied before but no longer applies (unless someone else owns
//! them). The structured-merge-diff algorithm of the API server, on fieldsV1 sets.

use serde_json::{Map, Value, json};

use super::fieldset::{self, FieldSet, key_element};
use super::managed::{self, Entry, Manager};
use crate::shape::{ListKind, Shape};
use crate::status::{ApiError, ApiResult};

/// Which part of the object an apply may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The main resource; `status` is ignored when the type has a status subresource.
    Main {
        /// The type has a status subresource.
        status_subresource: bool,
    },
    /// The status subresource: only `status`.
    Status,
}

/// One apply request.
#[derive(Debug, Clone)]
pub struct Apply<'a> {
    /// The applying manager (operation `Apply`).
    pub manager: &'a Manager,
    /// `force=true`: take over conflicting fields.
    pub force: bool,
    /// What the apply may touch.
    pub scope: Scope,
    /// The type's merge rules.
    pub shape: Shape<'a>,
    /// Timestamp for the managedFields entry.
    pub now: &'a str,
}

fn scoped(config: &Value, scope: Scope) -> Value {
    let mut config = managed::strip_bookkeeping(config);
    let Some(map) = config.as_object_mut() else {
        return config;
    };
    match scope {
        Scope::Status => map.retain(|k, _| k == "status"),
        Scope::Main {
            status_subresource: true,
        } => {
            map.remove("status");
        }
        Scope::Main {
            status_subresource: false,
        } => {}
    }
    config
}

/// Applies `config` to `live` (or to nothing: a create). Returns the new object with its
/// managedFields, or a 409 naming each conflicting field and its manager.
pub fn apply(live: Option<&Value>, config: &Value, request: &Apply<'_>) -> ApiResult<Value> {
    let config = scoped(config, request.scope);
    let applied = fieldset::applied_set(&config, request.shape);
    let base = live.cloned().unwrap_or_else(|| json!({}));
    let base_fields = managed::strip_bookkeeping(&base);
    let mut merged = merge(&base_fields, &config, request.shape);
    let changed = fieldset::diff(&base_fields, &merged, request.shape).changed;

    let mut entries = live.map(managed::read).unwrap_or_default();
    let mut conflicts: Vec<(String, FieldPath)> = Vec::new();
    for entry in entries.iter().filter(|e| !e.is(request.manager)) {
        for path in changed.intersection(&entry.fields) {
            conflicts.push((entry.describe(), path));
        }
    }
    if !conflicts.is_empty() && !request.force {
        return Err(conflict_error(&conflicts));
    }
    let mut others = FieldSet::default();
    for entry in entries.iter_mut().filter(|e| !e.is(request.manager)) {
        entry.fields.remove_all(&changed);
        others.extend(&entry.fields);
    }

    let previous = entries
        .iter()
        .find(|e| e.is(request.manager))
        .map(|e| e.fields.clone())
        .unwrap_or_default();
    for path in previous
        .iter()
        .filter(|p| !applied.contains(p) && !others.has_under(p))
    {
        fieldset::remove_path(&mut merged, path);
    }

    match entries.iter_mut().find(|e| e.is(request.manager)) {
        Some(entry) => {
            entry.fields = applied;
            entry.time = request.now.to_string();
            entry.manager.api_version = request.manager.api_version.clone();
        }
        None => entries.push(Entry {
            manager: request.manager.clone(),
            time: request.now.to_string(),
            fields: applied,
        }),
    }
    let mut result = restore_bookkeeping(&base, merged);
    managed::write(&mut result, &entries);
    Ok(result)
}

type FieldPath = Vec<String>;

/// Puts identity and versioning fields of `base` back onto a merged object.
fn restore_bookkeeping(base: &Value, mut merged: Value) -> Value {
    if !merged.is_object() {
        merged = json!({});
    }
    for field in ["apiVersion", "kind"] {
        if let Some(value) = base.get(field) {
            merged[field] = value.clone();
        }
    }
    if let Some(meta) = base.get("metadata").and_then(Value::as_object) {
        if !merged.get("metadata").is_some_and(Value::is_object) {
            merged["metadata"] = json!({});
        }
        for key in managed::BOOKKEEPING_METADATA
            .iter()
            .filter(|k| **k != "managedFields")
        {
            if let Some(value) = meta.get(*key) {
                merged["metadata"][*key] = value.clone();
            }
        }
    }
    merged
}

fn conflict_error(conflicts: &[(String, FieldPath)]) -> ApiError {
    let causes: Vec<(String, String)> = conflicts
        .iter()
        .map(|(manager, path)| (fieldset::display(path), format!("conflict with {manager}")))
        .collect();
    let message = if let [(manager, path)] = conflicts {
        format!(
            "Apply failed with 1 conflict: conflict with {manager}: {}",
            fieldset::display(path)
        )
    } else {
        let mut managers: Vec<&String> = conflicts.iter().map(|(m, _)| m).collect();
        managers.sort();
        managers.dedup();
        let mut lines = Vec::new();
        for manager in managers {
            lines.push(format!("conflicts with {manager}:"));
            for (_, path) in conflicts.iter().filter(|(m, _)| m == manager) {
                lines.push(format!("- {}", fieldset::display(path)));
            }
        }
        format!(
            "Apply failed with {} conflicts: {}",
            conflicts.len(),
            lines.join("\n")
        )
    };
    ApiError::apply_conflict(message, causes)
}

/// Merges an applied configuration into a live object: maps field by field, map-lists item by
/// key, sets by value; atomic lists, atomic maps and scalars are replaced. `null` removes.
pub fn merge(live: &Value, config: &Value, shape: Shape<'_>) -> Value {
    match (live, config) {
        (Value::Object(live_map), Value::Object(config_map)) if !shape.atomic_map() => {
            let mut out: Map<String, Value> = live_map.clone();
            for (key, value) in config_map {
                if value.is_null() {
                    out.remove(key);
                    continue;
                }
                let merged = match live_map.get(key) {
                    Some(current) => merge(current, value, shape.field(key)),
                    None => value.clone(),
                };
                out.insert(key.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(live_items), Value::Array(config_items)) => match shape.list_kind() {
            ListKind::Map(keys) => {
                let mut out = live_items.clone();
                for item in config_items {
                    let key = key_element(item, &keys);
                    let position = key.as_ref().and_then(|k| {
                        out.iter()
                            .position(|o| key_element(o, &keys).as_ref() == Some(k))
                    });
                    match position {
                        Some(index) => out[index] = merge(&out[index], item, shape.items()),
                        None => out.push(item.clone()),
                    }
                }
                Value::Array(out)
            }
            ListKind::Set => {
                let mut out = live_items.clone();
                out.extend(
                    config_items
                        .iter()
                        .filter(|i| !live_items.contains(i))
                        .cloned(),
                );
                Value::Array(out)
            }
            ListKind::Atomic => config.clone(),
        },
        _ => config.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manager(name: &str) -> Manager {
        Manager {
            name: name.into(),
            apply: true,
            api_version: "v1".into(),
            subresource: None,
        }
    }

    fn run(live: Option<&Value>, config: Value, who: &str) -> ApiResult<Value> {
        let manager = manager(who);
        let request = Apply {
            manager: &manager,
            force: false,
            scope: Scope::Main {
                status_subresource: false,
            },
            shape: Shape::root(None),
            now: "2025-01-01T00:00:00Z",
        };
        apply(live, &config, &request)
    }

    #[test]
    fn set_items_are_owned_and_removed_per_manager() {
        let config = |items: Value| json!({"metadata": {"finalizers": items}});
        let first = run(None, config(json!(["a", "b"])), "alice").unwrap();
        let second = run(Some(&first), config(json!(["c"])), "bob").unwrap();
        assert_eq!(second["metadata"]["finalizers"], json!(["a", "b", "c"]));
        let third = run(Some(&second), config(json!(["a"])), "alice").unwrap();
        assert_eq!(
            third["metadata"]["finalizers"],
            json!(["a", "c"]),
            "alice dropped b, bob's c stays"
        );
    }

    #[test]
    fn multi_key_list_items_merge_and_conflict_by_their_keys() {
        let ports = |items: Value| json!({"spec": {"ports": items}});
        let first = run(
            None,
            ports(json!([{"port": 80, "protocol": "TCP", "name": "http"}])),
            "alice",
        )
        .unwrap();
        let second = run(
            Some(&first),
            ports(json!([{"port": 80, "protocol": "UDP", "name": "dns"}])),
            "bob",
        )
        .unwrap();
        assert_eq!(second["spec"]["ports"].as_array().unwrap().len(), 2);
        let error = run(
            Some(&second),
            ports(json!([{"port": 80, "protocol": "TCP", "name": "web"}])),
            "bob",
        )
        .unwrap_err();
        assert_eq!(
            error.message,
            "Apply failed with 1 conflict: conflict with \"alice\": .spec.ports[port=80,protocol=\"TCP\"].name"
        );
    }
}
