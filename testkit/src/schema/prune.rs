//! Pruning: fields the schema does not declare are dropped, unless a node says
//! `x-kubernetes-preserve-unknown-fields: true`. `apiVersion`, `kind` and `metadata` survive at
//! the root and in embedded resources.

use serde_json::Value;

/// Prunes a whole object; returns the paths of the fields it dropped (`spec.colour`).
pub fn prune_root(object: &mut Value, schema: &Value) -> Vec<String> {
    let mut removed = Vec::new();
    prune(object, schema, true, "", &mut removed);
    removed
}

fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

fn prune(
    value: &mut Value,
    schema: &Value,
    root_like: bool,
    path: &str,
    removed: &mut Vec<String>,
) {
    match value {
        Value::Object(map) => {
            let preserve =
                schema.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
            let embedded = root_like
                || schema.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            map.retain(|key, child| {
                if embedded && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    return true;
                }
                if let Some(child_schema) = properties.and_then(|p| p.get(key)) {
                    prune(child, child_schema, false, &child_path(path, key), removed);
                    true
                } else if let Some(child_schema) = additional {
                    prune(child, child_schema, false, &child_path(path, key), removed);
                    true
                } else {
                    let keep =
                        preserve || schema.get("additionalProperties") == Some(&Value::Bool(true));
                    if !keep {
                        removed.push(child_path(path, key));
                    }
                    keep
                }
            });
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (index, item) in items.iter_mut().enumerate() {
                    prune(
                        item,
                        item_schema,
                        false,
                        &format!("{path}[{index}]"),
                        removed,
                    );
                }
            }
        }
        _ => {}
    }
}
