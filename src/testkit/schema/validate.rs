//! OpenAPI v3 validation of custom resources with the messages kube-openapi and the
//! apiextensions server produce (`spec.replicas in body should be less than or equal to 10`).

use serde_json::Value;

use super::formats::{cached_regex, format_ok, go_number};

use crate::testkit::patch::fieldset::key_element;
use crate::testkit::shape::{ListKind, Shape};
use crate::testkit::status::{FieldError, FieldErrorKind, render_value};

/// Validates everything but `apiVersion`, `kind` and `metadata` of an object.
pub fn root(object: &Value, schema: &Value, errors: &mut Vec<FieldError>) {
    let Some(map) = object.as_object() else {
        return;
    };
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (key, property) in properties {
            if matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            if let Some(value) = map.get(key) {
                node(value, property, key, errors);
            }
        }
    }
    required(map, schema, "", errors);
}

fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn invalid(path: &str, value: &Value, detail: String) -> FieldError {
    FieldError::new(
        path,
        FieldErrorKind::Invalid,
        Some(render_value(value)),
        detail,
    )
}

fn type_matches(value: &Value, expected: &str, schema: &Value) -> bool {
    if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return value.is_string() || value.as_f64().is_some_and(|f| f.fract() == 0.0);
    }
    match expected {
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "number" => value.is_number(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        _ => true,
    }
}

fn node(value: &Value, schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if value.is_null() {
        if schema.get("nullable") != Some(&Value::Bool(true)) && schema.get("type").is_some() {
            let expected = schema
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("object");
            errors.push(FieldError::new(
                path,
                FieldErrorKind::TypeInvalid,
                Some("\"null\"".into()),
                format!("{path} in body must be of type {expected}: \"null\""),
            ));
        }
        return;
    }
    if let Some(expected) = schema.get("type").and_then(Value::as_str)
        && !type_matches(value, expected, schema)
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::TypeInvalid,
            Some(render_value(value)),
            format!(
                "{path} in body must be of type {expected}: \"{}\"",
                type_name(value)
            ),
        ));
        return;
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        let names: Vec<String> = allowed
            .iter()
            .map(|a| {
                a.as_str()
                    .map_or_else(|| a.to_string(), |s| format!("{s:?}"))
            })
            .collect();
        errors.push(FieldError::new(
            path,
            FieldErrorKind::NotSupported,
            Some(render_value(value)),
            format!("supported values: {}", names.join(", ")),
        ));
    }
    match value {
        Value::Number(_) => number(value, schema, path, errors),
        Value::String(s) => string(value, s, schema, path, errors),
        Value::Array(items) => array(items, schema, path, errors),
        Value::Object(map) => object(value, map, schema, path, errors),
        _ => {}
    }
    for (keyword, combine) in [("allOf", 0), ("anyOf", 1), ("oneOf", 2)] {
        let Some(branches) = schema.get(keyword).and_then(Value::as_array) else {
            continue;
        };
        let results: Vec<Vec<FieldError>> = branches
            .iter()
            .map(|b| {
                let mut e = Vec::new();
                node(value, b, path, &mut e);
                e
            })
            .collect();
        let passing = results.iter().filter(|r| r.is_empty()).count();
        match combine {
            0 => errors.extend(results.into_iter().flatten()),
            1 if passing == 0 => errors.push(invalid(
                path,
                value,
                format!("{path} in body must validate at least one schema (anyOf)"),
            )),
            2 if passing != 1 => errors.push(invalid(
                path,
                value,
                format!("{path} in body must validate one and only one schema (oneOf)"),
            )),
            _ => {}
        }
    }
    if let Some(not) = schema.get("not") {
        let mut e = Vec::new();
        node(value, not, path, &mut e);
        if e.is_empty() {
            errors.push(invalid(
                path,
                value,
                format!("{path} in body must not validate the schema (not)"),
            ));
        }
    }
}

fn number(value: &Value, schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let Some(n) = value.as_f64() else { return };
    let bound = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_f64)
            .map(|b| (b, go_number(b)))
    };
    let exclusive = |key: &str| schema.get(key) == Some(&Value::Bool(true));
    if let Some((max, shown)) = bound("maximum") {
        if exclusive("exclusiveMaximum") && n >= max {
            errors.push(invalid(
                path,
                value,
                format!("{path} in body should be less than {shown}"),
            ));
        } else if n > max {
            errors.push(invalid(
                path,
                value,
                format!("{path} in body should be less than or equal to {shown}"),
            ));
        }
    }
    if let Some((min, shown)) = bound("minimum") {
        if exclusive("exclusiveMinimum") && n <= min {
            errors.push(invalid(
                path,
                value,
                format!("{path} in body should be greater than {shown}"),
            ));
        } else if n < min {
            errors.push(invalid(
                path,
                value,
                format!("{path} in body should be greater than or equal to {shown}"),
            ));
        }
    }
    if let Some((factor, shown)) = bound("multipleOf")
        && factor != 0.0
        && (n / factor).fract() != 0.0
    {
        errors.push(invalid(
            path,
            value,
            format!("{path} in body should be a multiple of {shown}"),
        ));
    }
    let format = schema.get("format").and_then(Value::as_str);
    let out_of = |lo: f64, hi: f64| n < lo || n > hi;
    if (format == Some("int32") && out_of(f64::from(i32::MIN), f64::from(i32::MAX)))
        || (format == Some("int64") && out_of(i64::MIN as f64, i64::MAX as f64))
    {
        errors.push(invalid(
            path,
            value,
            format!(
                "{path} in body must be of type {}: {value}",
                format.unwrap_or_default()
            ),
        ));
    }
}

fn string(value: &Value, s: &str, schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let length = s.chars().count() as u64;
    if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
        && length > max
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::TooLong,
            None,
            format!("may not be more than {max} bytes"),
        ));
    }
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
        && length < min
    {
        errors.push(invalid(
            path,
            value,
            format!("{path} in body should be at least {min} chars long"),
        ));
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        match cached_regex(pattern) {
            Some(re) if !re.is_match(s) => errors.push(invalid(
                path,
                value,
                format!("{path} in body should match '{pattern}'"),
            )),
            Some(_) => {}
            None => errors.push(invalid(
                path,
                value,
                format!("{path}: pattern {pattern:?} is not a valid regular expression"),
            )),
        }
    }
    if let Some(format) = schema.get("format").and_then(Value::as_str)
        && !format_ok(format, s)
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::TypeInvalid,
            Some(render_value(value)),
            format!("{path} in body must be of type {format}: {:?}", s),
        ));
    }
}

fn array(items: &[Value], schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let count = items.len() as u64;
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
        && count > max
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::TooMany,
            Some(count.to_string()),
            format!("must have at most {max} items"),
        ));
    }
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
        && count < min
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::Invalid,
            Some(count.to_string()),
            format!("{path} in body should have at least {min} items"),
        ));
    }
    if let Some(item_schema) = schema.get("items") {
        for (i, item) in items.iter().enumerate() {
            node(item, item_schema, &format!("{path}[{i}]"), errors);
        }
    }
    let duplicates_forbidden = schema.get("uniqueItems") == Some(&Value::Bool(true));
    match Shape::Schema(schema).list_kind() {
        ListKind::Set => duplicates(items, |item| Some(item.clone()), path, errors),
        ListKind::Map(keys) => duplicates(
            items,
            |item| key_element(item, &keys).map(Value::String),
            path,
            errors,
        ),
        ListKind::Atomic if duplicates_forbidden => {
            duplicates(items, |item| Some(item.clone()), path, errors)
        }
        ListKind::Atomic => {}
    }
}

fn duplicates(
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

fn object(
    value: &Value,
    map: &serde_json::Map<String, Value>,
    schema: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let properties = schema.get("properties").and_then(Value::as_object);
    for (key, child) in map {
        let child_schema = properties
            .and_then(|p| p.get(key))
            .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
        if let Some(child_schema) = child_schema {
            node(child, child_schema, &child_path(path, key), errors);
        }
    }
    required(map, schema, path, errors);
    let count = map.len() as u64;
    if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64)
        && count > max
    {
        errors.push(FieldError::new(
            path,
            FieldErrorKind::TooMany,
            Some(count.to_string()),
            format!("must have at most {max} items"),
        ));
    }
    if let Some(min) = schema.get("minProperties").and_then(Value::as_u64)
        && count < min
    {
        errors.push(invalid(
            path,
            value,
            format!("{path} in body should have at least {min} properties"),
        ));
    }
}

fn required(
    map: &serde_json::Map<String, Value>,
    schema: &Value,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !map.contains_key(name) {
            errors.push(FieldError::new(
                child_path(path, name),
                FieldErrorKind::Required,
                None,
                "",
            ));
        }
    }
}
