//! CEL validation rules (`x-kubernetes-validations`), evaluated by kube-rs's `kube-cel` crate
//! (what `kube`'s `cel` feature re-exports as `kube::core::cel`). Transition rules see the old
//! object as `oldSelf` on updates. Failures are reported as the apiextensions server reports
//! them: `Invalid value: <self>: <message>` (objects and lists leave their value out), or
//! `Forbidden`/`Required value`/`Duplicate value` for a rule's `reason`.

use serde_json::Value;

use super::formats::go_float;
use crate::status::{FieldError, FieldErrorKind, NIL_FIELD};

/// Whether the schema has any rule.
pub fn has_rules(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.contains_key("x-kubernetes-validations") || map.values().any(has_rules)
        }
        Value::Array(items) => items.iter().any(has_rules),
        _ => false,
    }
}

/// The `fieldPath`s declared for a rule text anywhere in the schema.
fn field_paths<'a>(schema: &'a Value, rule: &str, found: &mut Vec<&'a str>) {
    match schema {
        Value::Object(map) => {
            for validation in map
                .get("x-kubernetes-validations")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if validation.get("rule").and_then(Value::as_str) == Some(rule)
                    && let Some(path) = validation.get("fieldPath").and_then(Value::as_str)
                {
                    found.push(path);
                }
            }
            for child in map.values() {
                field_paths(child, rule, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| field_paths(i, rule, found)),
        _ => {}
    }
}

/// The value at a dotted field path with `[i]` indexes (`spec.items[1].name`).
fn at<'a>(object: &'a Value, path: &str) -> Option<&'a Value> {
    let mut current = object;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, indexes) = part.split_once('[').unwrap_or((part, ""));
        if !name.is_empty() {
            current = current.get(name)?;
        }
        for index in indexes.split('[').filter(|i| !i.is_empty()) {
            current = current.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(current)
}

/// The value of `self` for a failed rule: the value at the error's path without the rule's
/// `fieldPath`.
fn self_value<'a>(object: &'a Value, schema: &Value, rule: &str, path: &str) -> Option<&'a Value> {
    let mut declared = Vec::new();
    field_paths(schema, rule, &mut declared);
    let base = declared
        .iter()
        .find_map(|suffix| {
            let suffix = if suffix.starts_with('.') {
                (*suffix).to_string()
            } else {
                format!(".{suffix}")
            };
            path.strip_suffix(suffix.as_str())
        })
        .unwrap_or(path);
    at(object, base)
}

/// A value as the API server prints it in a field error, or `None` for objects and lists.
fn shown(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::Object(_) | Value::Array(_) => None,
        Value::String(s) => Some(format!("{s:?}")),
        Value::Number(n) => Some(match n.as_i64() {
            Some(i) => i.to_string(),
            None => go_float(n.as_f64().unwrap_or_default()),
        }),
        other => Some(other.to_string()),
    }
}

/// Evaluates every CEL rule of the schema against the object.
pub fn validate(object: &Value, old: Option<&Value>, schema: &Value) -> Vec<FieldError> {
    if !has_rules(schema) {
        return Vec::new();
    }
    let Err(failures) = kube_cel::Validator::new().validate(schema, object, old) else {
        return Vec::new();
    };
    failures
        .into_vec()
        .into_iter()
        .map(|failure| {
            // A rule at the root has no field path.
            let path = if failure.field_path.is_empty() {
                NIL_FIELD.to_owned()
            } else {
                failure.field_path.clone()
            };
            let kind = match failure.reason.as_deref() {
                Some("FieldValueForbidden") => FieldErrorKind::Forbidden,
                Some("FieldValueRequired") => FieldErrorKind::Required,
                Some("FieldValueDuplicate") => FieldErrorKind::Duplicate,
                _ => FieldErrorKind::Invalid,
            };
            let value = match kind {
                FieldErrorKind::Invalid | FieldErrorKind::Duplicate => {
                    shown(self_value(object, schema, &failure.rule, &path))
                }
                _ => None,
            };
            let detail = if kind == FieldErrorKind::Duplicate {
                String::new()
            } else {
                failure.message
            };
            FieldError::new(path, kind, value, detail)
        })
        .collect()
}
