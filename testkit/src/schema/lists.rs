//! The uniqueness of `x-kubernetes-list-type: set` items and `map` keys. The API server checks
//! it in a pass of its own after schema validation, so these errors follow the schema's.

use serde_json::Value;

use crate::patch::fieldset::key_element;
use crate::shape::{ListKind, Shape};
use crate::status::{FieldError, FieldErrorKind, render_value};

/// The duplicate set items and map keys of every list in `object`.
pub fn duplicates(object: &Value, schema: &Value, errors: &mut Vec<FieldError>) {
    let Some(map) = object.as_object() else {
        return;
    };
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, value) in map {
        if matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        if let Some(property) = properties.get(key) {
            walk(value, property, key, errors);
        }
    }
}

fn walk(value: &Value, schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    match value {
        Value::Array(items) => {
            match Shape::Schema(schema).list_kind() {
                ListKind::Set => report(items, |item| Some(item.clone()), path, errors),
                ListKind::Map(keys) => report(
                    items,
                    |item| key_element(item, &keys).map(Value::String),
                    path,
                    errors,
                ),
                ListKind::Atomic => {}
            }
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    walk(item, item_schema, &format!("{path}[{i}]"), errors);
                }
            }
        }
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (key, child) in map {
                if let Some(child_schema) = properties.and_then(|p| p.get(key)).or(additional) {
                    walk(child, child_schema, &format!("{path}.{key}"), errors);
                }
            }
        }
        _ => {}
    }
}

fn report(
    items: &[Value],
    identity: impl Fn(&Value) -> Option<Value>,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let mut seen: Vec<Value> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(id) = identity(item) else { continue };
        if seen.contains(&id) {
            let shown = match &id {
                Value::String(s) if s.starts_with("k:") => s.trim_start_matches("k:").to_string(),
                other => render_value(other),
            };
            errors.push(FieldError::new(
                format!("{path}[{i}]"),
                FieldErrorKind::Duplicate,
                Some(shown),
                "",
            ));
        } else {
            seen.push(id);
        }
    }
}
