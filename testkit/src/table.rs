//! `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, what `kubectl get` asks for: objects
//! as rows of a `meta.k8s.io/v1` Table, with the CRD's printer columns (for built-in kinds and
//! CRDs without printer columns, Name and Age).

use serde_json::{Value, json};

use super::objects::{at_json_path, partial_metadata};
use super::resources::ResourceType;

const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

const AGE_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// A printer column: its header and where its value is.
struct Column {
    definition: Value,
    json_path: String,
    type_: String,
}

fn columns(resource_type: &ResourceType, version: &str) -> Vec<Column> {
    let custom = resource_type
        .printer_columns(version)
        .and_then(Value::as_array)
        .filter(|columns| !columns.is_empty());
    let Some(custom) = custom else {
        return vec![Column {
            definition: json!({"name": "Age", "type": "date", "format": "", "description": AGE_DESCRIPTION, "priority": 0}),
            json_path: ".metadata.creationTimestamp".into(),
            type_: "date".into(),
        }];
    };
    custom
        .iter()
        .map(|c| {
            let text = |key: &str| c.get(key).and_then(Value::as_str).unwrap_or_default();
            Column {
                definition: json!({
                    "name": text("name"), "type": text("type"), "format": text("format"),
                    "description": text("description"),
                    "priority": c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                }),
                json_path: text("jsonPath").to_owned(),
                type_: text("type").to_owned(),
            }
        })
        .collect()
}

/// A get's object or a list's items (`body`) as a Table.
pub fn table(resource_type: &ResourceType, version: &str, body: &Value, list: bool) -> Value {
    let columns = columns(resource_type, version);
    let mut definitions = vec![
        json!({"name": "Name", "type": "string", "format": "name", "description": NAME_DESCRIPTION, "priority": 0}),
    ];
    definitions.extend(columns.iter().map(|c| c.definition.clone()));
    let objects: Vec<&Value> = if list {
        body["items"].as_array().into_iter().flatten().collect()
    } else {
        vec![body]
    };
    let now = jiff::Timestamp::now();
    let rows: Vec<Value> = objects
        .into_iter()
        .map(|object| {
            let mut cells = vec![object["metadata"]["name"].clone()];
            cells.extend(
                columns
                    .iter()
                    .map(|c| cell(&c.type_, at_json_path(object, &c.json_path), now)),
            );
            json!({"cells": cells, "object": partial_metadata(object)})
        })
        .collect();
    let mut metadata = json!({});
    for key in ["resourceVersion", "continue", "remainingItemCount"] {
        if let Some(value) = body["metadata"].get(key).filter(|_| list) {
            metadata[key] = value.clone();
        }
    }
    json!({
        "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": metadata,
        "columnDefinitions": definitions, "rows": rows,
    })
}

/// A cell as the API server's CRD table convertor writes it: strings printed, numbers and
/// booleans typed, dates as the age kubectl shows, anything missing or mistyped null.
fn cell(type_: &str, value: Option<&Value>, now: jiff::Timestamp) -> Value {
    let Some(value) = value else {
        return Value::Null;
    };
    match type_ {
        "string" => match value {
            Value::String(text) => json!(text),
            other => json!(other.to_string()),
        },
        "integer" => value.as_f64().map_or(Value::Null, |n| json!(n as i64)),
        "number" => value.as_f64().map_or(Value::Null, |n| json!(n)),
        "boolean" => value.as_bool().map_or(Value::Null, |b| json!(b)),
        "date" => value
            .as_str()
            .and_then(|text| text.parse::<jiff::Timestamp>().ok())
            .map_or(Value::Null, |then| {
                json!(human_duration(now.as_second() - then.as_second()))
            }),
        _ => Value::Null,
    }
}

/// apimachinery's `duration.HumanDuration`: `42s`, `3m20s`, `15m`, `5h10m`, `2d3h`, `1y20d`.
fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    let with = |big: i64, unit: &str, small: i64, small_unit: &str| {
        if small == 0 {
            format!("{big}{unit}")
        } else {
            format!("{big}{unit}{small}{small_unit}")
        }
    };
    if minutes < 10 {
        return with(minutes, "m", seconds % 60, "s");
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        return with(hours, "h", minutes % 60, "m");
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        return with(hours / 24, "d", hours % 24, "h");
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        return with(hours / 24 / 365, "y", (hours / 24) % 365, "d");
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_kubectl_prints_them() {
        let cases = [
            (-5, "<invalid>"),
            (-1, "0s"),
            (42, "42s"),
            (200, "3m20s"),
            (180, "3m"),
            (900, "15m"),
            (5 * 3600 + 600, "5h10m"),
            (30 * 3600, "30h"),
            (51 * 3600, "2d3h"),
            (30 * 86400, "30d"),
            (385 * 86400, "385d"),
            (750 * 86400, "2y20d"),
            (3000 * 86400, "8y"),
        ];
        for (seconds, expected) in cases {
            assert_eq!(human_duration(seconds), expected, "{seconds}s");
        }
    }

    #[test]
    fn cells_follow_the_column_type_and_path() {
        let object = json!({"spec": {"image": "nginx", "ports": [{"port": 80}], "on": true}});
        let now = jiff::Timestamp::now();
        let at = |path: &str| at_json_path(&object, path);
        assert_eq!(cell("string", at(".spec.image"), now), json!("nginx"));
        assert_eq!(cell("integer", at(".spec.ports[0].port"), now), json!(80));
        assert_eq!(cell("boolean", at(".spec.on"), now), json!(true));
        assert_eq!(cell("integer", at(".spec.image"), now), Value::Null);
        assert_eq!(cell("string", at(".status.phase"), now), Value::Null);
        let conditions = r#".status.conditions[?(@.type=="Ready")].status"#;
        assert_eq!(cell("string", at(conditions), now), Value::Null);
    }
}
