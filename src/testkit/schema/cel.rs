//! CEL validation rules (`x-kubernetes-validations`), evaluated by kube-rs's `kube-cel` crate
//! (what `kube`'s `cel` feature re-exports as `kube::core::cel`). Transition rules see the old
//! object as `oldSelf` on updates.

use serde_json::Value;

use crate::testkit::status::{FieldError, FieldErrorKind};

fn has_rules(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.contains_key("x-kubernetes-validations") || map.values().any(has_rules)
        }
        Value::Array(items) => items.iter().any(has_rules),
        _ => false,
    }
}

fn type_name(value: Option<&Value>) -> &'static str {
    match value {
        Some(Value::String(_)) => "string",
        Some(Value::Number(n)) if n.is_f64() => "number",
        Some(Value::Number(_)) => "integer",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Array(_)) => "array",
        _ => "object",
    }
}

/// Evaluates every CEL rule of the schema against the object.
pub fn validate(object: &Value, old: Option<&Value>, schema: &Value) -> Vec<FieldError> {
    if !has_rules(schema) {
        return Vec::new();
    }
    let Err(failures) = kube_core::cel::Validator::new().validate(schema, object, old) else {
        return Vec::new();
    };
    failures
        .into_vec()
        .into_iter()
        .map(|failure| {
            let pointer = format!("/{}", failure.field_path.replace('.', "/"));
            let value = if failure.field_path.is_empty() {
                Some(object)
            } else {
                object.pointer(&pointer)
            };
            FieldError::new(
                failure.field_path.clone(),
                FieldErrorKind::Invalid,
                Some(format!("{:?}", type_name(value))),
                failure.message,
            )
        })
        .collect()
}
