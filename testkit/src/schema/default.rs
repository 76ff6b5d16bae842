//! Defaulting: a field that is absent (or `null` where the schema does not allow null) gets the
//! schema's `default`, recursively, so defaults inside defaulted objects apply too. A `null` of
//! a non-nullable field without a default is then dropped, as the API server drops it.

use serde_json::Value;

/// Applies defaults throughout a value.
pub fn apply(value: &mut Value, schema: &Value) {
    match value {
        Value::Object(map) => {
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (key, property) in properties {
                    let nullable = property.get("nullable") == Some(&Value::Bool(true));
                    let Some(default) = property.get("default") else {
                        continue;
                    };
                    match map.get(key) {
                        None => {
                            map.insert(key.clone(), default.clone());
                        }
                        Some(Value::Null) if !nullable => {
                            map.insert(key.clone(), default.clone());
                        }
                        Some(_) => {}
                    }
                }
                for (key, child) in map.iter_mut() {
                    if let Some(property) = properties.get(key) {
                        apply(child, property);
                    }
                }
            } else if let Some(additional) =
                schema.get("additionalProperties").filter(|a| a.is_object())
            {
                for child in map.values_mut() {
                    apply(child, additional);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    apply(item, item_schema);
                }
            }
        }
        _ => {}
    }
}

/// Removes `null` values of fields whose schema is not `nullable`, throughout a value.
pub fn drop_nulls(value: &mut Value, schema: &Value) {
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            map.retain(|key, child| {
                let Some(child_schema) = properties.and_then(|p| p.get(key)).or(additional) else {
                    return true;
                };
                if child.is_null() {
                    return child_schema.get("nullable") == Some(&Value::Bool(true));
                }
                drop_nulls(child, child_schema);
                true
            });
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    drop_nulls(item, item_schema);
                }
            }
        }
        _ => {}
    }
}
