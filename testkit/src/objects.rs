//! Object semantics shared by every write: identity and timestamps on create, the fields an
//! update may not change, generation bumps on spec changes only, status subresource separation,
//! and the finalizer rule for objects being deleted.

use serde_json::{Value, json};

use super::status::{FieldError, FieldErrorKind};

/// The current time as Kubernetes writes `metav1.Time` (RFC 3339, seconds, UTC).
pub fn now() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The value at a CRD's JSONPath (printer columns, scale paths): dotted fields and `[index]`;
/// the filter expressions of full JSONPath (`[?(@.type=="Ready")]`) find nothing.
pub fn at_json_path<'a>(object: &'a Value, path: &str) -> Option<&'a Value> {
    let mut current = object;
    for segment in path.trim_start_matches('.').split('.') {
        let (field, indexes) = segment.split_once('[').unwrap_or((segment, ""));
        if !field.is_empty() {
            current = current.get(field)?;
        }
        for index in indexes.split('[').filter(|i| !i.is_empty()) {
            let index: usize = index.strip_suffix(']')?.parse().ok()?;
            current = current.get(index)?;
        }
    }
    Some(current)
}

/// `metadata.<field>` as a string.
pub fn meta_str<'a>(object: &'a Value, field: &str) -> Option<&'a str> {
    object
        .get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
}

/// `metadata.finalizers`.
pub fn finalizers(object: &Value) -> Vec<String> {
    object
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|f| {
            f.iter()
                .filter_map(|s| s.as_str().map(ToString::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the object carries a deletionTimestamp.
pub fn is_deleting(object: &Value) -> bool {
    object
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// A `generateName` suffix: five characters of the alphabet Kubernetes uses, derived from a
/// counter so names are unique and runs repeatable.
pub fn name_suffix(seed: u64) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut x = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x2545_F491_4F6C_DD1D);
    (0..5)
        .map(|_| {
            x ^= x >> 29;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            ALPHABET[(x % ALPHABET.len() as u64) as usize] as char
        })
        .collect()
}

/// Checks a name as a DNS-1123 subdomain, as Kubernetes does for most kinds.
pub fn check_name(name: &str) -> Option<FieldError> {
    let label_ok = |label: &str| {
        !label.is_empty()
            && label
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    if name.len() <= 253 && name.split('.').all(label_ok) {
        return None;
    }
    Some(FieldError::new(
        "metadata.name",
        FieldErrorKind::Invalid,
        Some(format!("{name:?}")),
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ))
}

fn without(object: &Value, fields: &[&str]) -> Value {
    let mut object = object.clone();
    if let Some(map) = object.as_object_mut() {
        for field in fields {
            map.remove(*field);
        }
    }
    object
}

/// Whether an update changed anything that bumps `metadata.generation`: everything but
/// metadata, and but status when status is a subresource.
pub fn spec_changed(old: &Value, new: &Value, status_subresource: bool) -> bool {
    let ignored: &[&str] = if status_subresource {
        &["metadata", "status", "apiVersion", "kind"]
    } else {
        &["metadata", "apiVersion", "kind"]
    };
    without(old, ignored) != without(new, ignored)
}

/// Copies the fields clients cannot change on update from the stored object.
pub fn keep_immutable_metadata(old: &Value, new: &mut Value) {
    if !new.get("metadata").is_some_and(Value::is_object) {
        new["metadata"] = json!({});
    }
    for field in [
        "name",
        "namespace",
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        match old.pointer(&format!("/metadata/{field}")) {
            Some(value) => new["metadata"][field] = value.clone(),
            None => {
                new["metadata"].as_object_mut().map(|m| m.remove(field));
            }
        }
    }
}

/// Keeps status and main resource apart: a status write only changes `status` (and
/// managedFields); a main write never changes `status` of a type with a status subresource.
pub fn separate_status(
    old: &Value,
    new: Value,
    status_write: bool,
    status_subresource: bool,
) -> Value {
    if status_write {
        let mut out = old.clone();
        match new.get("status") {
            Some(status) => out["status"] = status.clone(),
            None => {
                out.as_object_mut().map(|m| m.remove("status"));
            }
        }
        if let Some(managed) = new.pointer("/metadata/managedFields") {
            out["metadata"]["managedFields"] = managed.clone();
        }
        out
    } else if status_subresource {
        let mut out = new;
        match old.get("status") {
            Some(status) => out["status"] = status.clone(),
            None => {
                out.as_object_mut().map(|m| m.remove("status"));
            }
        }
        out
    } else {
        new
    }
}

/// No new finalizers may be added to an object that is being deleted.
pub fn check_finalizers(old: &Value, new: &Value) -> Option<FieldError> {
    if !is_deleting(old) {
        return None;
    }
    let before = finalizers(old);
    let added: Vec<String> = finalizers(new)
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    if added.is_empty() {
        return None;
    }
    let list = added
        .iter()
        .map(|f| format!("{f:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(FieldError::new(
        "metadata.finalizers",
        FieldErrorKind::Forbidden,
        None,
        format!(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{list}}}"
        ),
    ))
}

/// The object compared for no-op detection: resourceVersion and managedFields timestamps aside.
pub fn noop_view(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("resourceVersion");
        if let Some(Value::Array(entries)) = meta.get_mut("managedFields") {
            for entry in entries {
                entry.as_object_mut().map(|e| e.remove("time"));
            }
        }
    }
    object
}

/// An object reduced to `PartialObjectMetadata`, as served to metadata-only clients.
pub fn partial_metadata(object: &Value) -> Value {
    json!({"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": object.get("metadata").cloned().unwrap_or_else(|| json!({}))})
}
