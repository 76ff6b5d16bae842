//! Whether a live object carries every value of the one a controller would apply: the value half
//! of [`crate::reconcile::Drift`] (ownership is the other half).
//!
//! A subset check robust to what the API server adds or rewrites: defaulted fields and other
//! managers' fields are ignored, zero values may be omitted, list items match by merge key, and
//! integers, int-or-strings and quantities compare by value.

use serde_json::Value;

/// The keys that identify an item of an associative list, in Kubernetes' built-in types
/// (`containers` by `name`, container ports by `containerPort`, Service ports by `port`,
/// `ownerReferences` by `uid`, `conditions` by `type`, `volumeMounts` by `mountPath`).
const MERGE_KEYS: [&str; 6] = ["name", "containerPort", "port", "uid", "type", "mountPath"];

/// Whether `live` contains `desired` (see the module documentation for the rules).
pub fn contains(live: &Value, desired: &Value) -> bool {
    match (live, desired) {
        (_, Value::Null) => true,
        (Value::Object(live), Value::Object(desired)) => desired.iter().all(|(key, value)| {
            match live.get(key) {
                Some(live) => contains(live, value),
                // The server drops empty and zero values of `omitempty` fields.
                None => is_zero(value),
            }
        }),
        (Value::Array(live), Value::Array(desired)) => list_contains(live, desired),
        (Value::Number(live), Value::Number(desired)) => live.as_f64() == desired.as_f64(),
        // An int-or-string or a quantity written one way and stored another.
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            quantity(s).is_some_and(|q| Some(q) == n.as_f64())
        }
        (Value::String(live), Value::String(desired)) => {
            live == desired
                || matches!((quantity(live), quantity(desired)), (Some(a), Some(b)) if a == b)
        }
        (live, desired) => live == desired,
    }
}

fn list_contains(live: &[Value], desired: &[Value]) -> bool {
    match merge_key(desired) {
        Some(key) => desired.iter().all(|item| {
            live.iter()
                .find(|candidate| {
                    candidate.get(key) == item.get(key) && same_protocol(candidate, item)
                })
                .is_some_and(|candidate| contains(candidate, item))
        }),
        // Atomic lists: the same items in the same order.
        None => {
            live.len() == desired.len() && live.iter().zip(desired).all(|(l, d)| contains(l, d))
        }
    }
}

/// The merge key every item of `items` has, if they are objects of an associative list.
fn merge_key(items: &[Value]) -> Option<&'static str> {
    let first = items.first()?.as_object()?;
    MERGE_KEYS
        .into_iter()
        .find(|key| first.contains_key(*key) && items.iter().all(|item| item.get(*key).is_some()))
}

/// Ports are keyed by port and protocol; a protocol left out defaults to TCP.
fn same_protocol(live: &Value, desired: &Value) -> bool {
    match desired.get("protocol") {
        None => true,
        Some(protocol) => {
            live.get("protocol").unwrap_or(&Value::Null) == protocol
                || (live.get("protocol").is_none() && protocol == "TCP")
        }
    }
}

fn is_zero(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(is_zero),
    }
}

/// The value of a Kubernetes quantity (`500m`, `1Gi`, `1e3`, `8080`), if `text` is one.
fn quantity(text: &str) -> Option<f64> {
    const SUFFIXES: [(&str, f64); 13] = [
        ("Ki", 1024.0),
        ("Mi", 1_048_576.0),
        ("Gi", 1_073_741_824.0),
        ("Ti", 1_099_511_627_776.0),
        ("Pi", 1_125_899_906_842_624.0),
        ("Ei", 1_152_921_504_606_846_976.0),
        ("n", 1e-9),
        ("u", 1e-6),
        ("m", 1e-3),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
    ];
    let (number, scale) = SUFFIXES
        .iter()
        .find_map(|(suffix, scale)| text.strip_suffix(suffix).map(|n| (n, *scale)))
        .unwrap_or((text, 1.0));
    let plain = number.trim_start_matches(['+', '-']);
    let is_decimal = !plain.is_empty()
        && plain
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        && plain.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    if !is_decimal {
        return None;
    }
    number.parse::<f64>().ok().map(|n| n * scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn server_additions_and_omitted_zero_values_are_ignored() {
        let desired = json!({"metadata": {"name": "a", "labels": {}}, "spec": {"replicas": 2,
            "paused": false, "template": {"spec": {"securityContext": {}}}}});
        let live = json!({"metadata": {"name": "a", "uid": "u", "resourceVersion": "7"},
            "spec": {"replicas": 2, "revisionHistoryLimit": 10, "template": {"spec": {
            "securityContext": {}, "dnsPolicy": "ClusterFirst"}}}, "status": {}});
        assert!(contains(&live, &desired));
        assert!(!contains(&live, &json!({"spec": {"replicas": 3}})));
        assert!(!contains(&live, &json!({"spec": {"minReadySeconds": 5}})));
    }

    #[test]
    fn associative_lists_match_by_key_and_atomic_lists_by_position() {
        let live = json!({"containers": [
            {"name": "sidecar", "image": "proxy"},
            {"name": "app", "image": "nginx:1.25", "imagePullPolicy": "IfNotPresent",
             "ports": [{"containerPort": 80, "protocol": "TCP"}]}],
            "args": ["a", "b"]});
        let desired = json!({"containers": [{"name": "app", "image": "nginx:1.25",
            "ports": [{"containerPort": 80, "protocol": "TCP"}]}], "args": ["a", "b"]});
        assert!(contains(&live, &desired));
        let new_image = json!({"containers": [{"name": "app", "image": "nginx:1.26"}]});
        assert!(!contains(&live, &new_image));
        let new_port = json!({"containers": [{"name": "app", "ports": [{"containerPort": 8080}]}]});
        assert!(!contains(&live, &new_port));
        assert!(!contains(&live, &json!({"args": ["a"]})));
        assert!(!contains(&live, &json!({"args": ["b", "a"]})));
        let udp = json!({"containers": [{"name": "app", "ports": [{"containerPort": 80, "protocol": "UDP"}]}]});
        assert!(!contains(&live, &udp));
    }

    #[test]
    fn numbers_int_or_strings_and_quantities_compare_by_value() {
        assert!(contains(&json!(1.0), &json!(1)));
        assert!(contains(
            &json!({"targetPort": 8080}),
            &json!({"targetPort": "8080"})
        ));
        assert!(!contains(
            &json!({"targetPort": "http"}),
            &json!({"targetPort": 8080})
        ));
        assert!(contains(
            &json!({"memory": "1Gi"}),
            &json!({"memory": "1073741824"})
        ));
        assert!(contains(&json!({"cpu": "500m"}), &json!({"cpu": "0.5"})));
        assert!(!contains(&json!({"cpu": "1"}), &json!({"cpu": "500m"})));
        assert!(!contains(
            &json!({"image": "nginx"}),
            &json!({"image": "nginx:1"})
        ));
        assert_eq!(quantity("nginx"), None);
        assert_eq!(quantity("1e3"), Some(1000.0));
    }
}
