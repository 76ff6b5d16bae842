//! The few semantics of built-in kinds that operators rely on: a Secret's `stringData` is
//! merged into `data` (base64) and never stored, and ConfigMaps or Secrets marked `immutable`
//! refuse changes to their data.

use serde_json::{Map, Value};

use super::status::{FieldError, FieldErrorKind};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding, as Kubernetes encodes `data` values.
fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn is_core(object: &Value, kind: &str) -> bool {
    object.get("apiVersion").and_then(Value::as_str) == Some("v1")
        && object.get("kind").and_then(Value::as_str) == Some(kind)
}

/// Folds a Secret's `stringData` into `data`, as the API server does on every write.
pub fn normalize(object: &mut Value) {
    if !is_core(object, "Secret") {
        return;
    }
    let Some(Value::Object(string_data)) =
        object.as_object_mut().and_then(|m| m.remove("stringData"))
    else {
        return;
    };
    if !object.get("data").is_some_and(Value::is_object) {
        object["data"] = Value::Object(Map::new());
    }
    for (key, value) in string_data {
        let text = value
            .as_str()
            .map(ToString::to_string)
            .unwrap_or_else(|| value.to_string());
        object["data"][key] = Value::String(base64(text.as_bytes()));
    }
}

/// Fields of built-in kinds that are Go maps marked `omitempty`: the API server decodes every
/// object into Go structs, so an empty one (`limits: {}` left by an apply that removed its last
/// key) is not stored.
const OMITTED_EMPTY_MAPS: [&str; 8] = [
    "labels",
    "annotations",
    "limits",
    "requests",
    "matchLabels",
    "nodeSelector",
    "data",
    "binaryData",
];

/// Drops the empty maps of [`OMITTED_EMPTY_MAPS`] from an object of a built-in kind.
pub fn drop_empty_maps(object: &mut Value) {
    match object {
        Value::Object(map) => {
            map.retain(|key, value| {
                !(OMITTED_EMPTY_MAPS.contains(&key.as_str())
                    && value.as_object().is_some_and(Map::is_empty))
            });
            map.values_mut().for_each(drop_empty_maps);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_empty_maps),
        _ => {}
    }
}

/// Changes an immutable ConfigMap or Secret may not receive.
pub fn check_immutable(old: &Value, new: &Value) -> Vec<FieldError> {
    if !(is_core(old, "ConfigMap") || is_core(old, "Secret"))
        || old.get("immutable") != Some(&Value::Bool(true))
    {
        return Vec::new();
    }
    let fields: &[&str] = if is_core(old, "Secret") {
        &["data", "type"]
    } else {
        &["data", "binaryData"]
    };
    let mut errors: Vec<FieldError> = fields
        .iter()
        .filter(|f| old.get(**f) != new.get(**f))
        .map(|f| {
            FieldError::new(
                *f,
                FieldErrorKind::Forbidden,
                None,
                "field is immutable when `immutable` is set",
            )
        })
        .collect();
    if new.get("immutable") != Some(&Value::Bool(true)) {
        errors.push(FieldError::new(
            "immutable",
            FieldErrorKind::Forbidden,
            None,
            "field is immutable when `immutable` is set",
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn string_data_becomes_base64_data() {
        let mut secret = json!({"apiVersion": "v1", "kind": "Secret", "data": {"a": "eA=="}, "stringData": {"b": "hello", "c": "ab"}});
        normalize(&mut secret);
        assert_eq!(
            secret,
            json!({"apiVersion": "v1", "kind": "Secret", "data": {"a": "eA==", "b": "aGVsbG8=", "c": "YWI="}})
        );
    }
}
