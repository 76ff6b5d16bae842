//! OpenAPI v3 validation of custom resources with the messages kube-openapi and the
//! apiextensions server produce (`spec.replicas in body should be less than or equal to 10`),
//! checking each node's keywords in kube-openapi's order: type, `allOf`/`anyOf`/`oneOf`/`not`,
//! string, format, enum, array, number, object (whose properties recurse).
//!
//! The sibling properties of an object are visited in key order; kube-apiserver visits them in
//! Go's random map order, so the order of their errors differs from run to run there.

use serde_json::Value;

use super::formats::{cached_regex, format_ok};
use super::location::Loc;
use super::numbers;
use super::types::type_error;
use crate::status::{FieldError, FieldErrorKind, NIL_FIELD, render_value};

/// Validates everything but `apiVersion`, `kind` and `metadata` of an object.
pub fn root(object: &Value, schema: &Value, errors: &mut Vec<FieldError>) {
    let Some(map) = object.as_object() else {
        return;
    };
    let loc = Loc::new(NIL_FIELD, "");
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (key, property) in properties {
            if matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            if let Some(value) = map.get(key) {
                node(value, property, &loc.child(key), errors);
            }
        }
    }
    required(map, schema, &loc, errors);
}

/// Validates the `status` of an object alone, as a status-subresource write is validated: field
/// paths start with `status.`, messages name fields relative to it.
pub fn status(status: &Value, schema: &Value, errors: &mut Vec<FieldError>) {
    let loc = Loc::new("status", "status");
    node(status, schema, &loc, errors);
}

fn node(value: &Value, schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    if value.is_null() {
        // Nulls of non-nullable fields are pruned before validation; a nullable one passes.
        return;
    }
    if let Some((expected, actual)) = type_error(value, schema) {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::TypeInvalid,
            Some(format!("{actual:?}")),
            format!(
                "{} in body must be of type {expected}: \"{actual}\"",
                loc.body()
            ),
        ));
    }
    combinations(value, schema, loc, errors);
    if let Value::String(s) = value {
        string(value, s, schema, loc, errors);
        if let Some(format) = schema.get("format").and_then(Value::as_str)
            && !format_ok(format, s)
        {
            errors.push(FieldError::new(
                loc.field(),
                FieldErrorKind::TypeInvalid,
                Some(render_value(value)),
                format!("{} in body must be of type {format}: {s:?}", loc.body()),
            ));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        let names: Vec<String> = allowed.iter().map(render_value).collect();
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::NotSupported,
            Some(render_value(value)),
            format!("supported values: {}", names.join(", ")),
        ));
    }
    match value {
        Value::Array(items) => array(items, schema, loc, errors),
        Value::Number(_) => numbers::check(value, schema, loc, errors),
        Value::Object(map) => object(map, schema, loc, errors),
        _ => {}
    }
}

/// An error kube-openapi reports as a plain (composite) error: at the validation root, with an
/// empty value.
fn composite(loc: &Loc<'_>, message: String) -> FieldError {
    FieldError::new(
        loc.root(),
        FieldErrorKind::Invalid,
        Some("\"\"".into()),
        message,
    )
}

/// `anyOf`, `oneOf`, `allOf` and `not`. A failing `anyOf`/`oneOf` also reports the errors of its
/// best failing branch (here: the one with the fewest errors; kube-openapi counts the checks
/// that passed).
fn combinations(value: &Value, schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    let branches = |keyword: &str| -> Vec<Vec<FieldError>> {
        schema
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|branch| {
                let mut found = Vec::new();
                node(value, branch, loc, &mut found);
                found
            })
            .collect()
    };
    let best = |results: &[Vec<FieldError>]| {
        results
            .iter()
            .filter(|r| !r.is_empty())
            .min_by_key(|r| r.len())
            .cloned()
            .unwrap_or_default()
    };
    let path = loc.body();
    let any = branches("anyOf");
    if !any.is_empty() && any.iter().all(|r| !r.is_empty()) {
        errors.push(composite(
            loc,
            format!("{path:?} must validate at least one schema (anyOf)"),
        ));
        errors.extend(best(&any));
    }
    let one = branches("oneOf");
    if !one.is_empty() {
        let valid = one.iter().filter(|r| r.is_empty()).count();
        if valid != 1 {
            let found = if valid == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {valid} valid alternatives")
            };
            errors.push(composite(
                loc,
                format!("{path:?} must validate one and only one schema (oneOf). {found}"),
            ));
            if valid == 0 {
                errors.extend(best(&one));
            }
        }
    }
    let all = branches("allOf");
    if !all.is_empty() {
        let valid = all.iter().filter(|r| r.is_empty()).count();
        let count = all.len();
        errors.extend(all.into_iter().flatten());
        if valid != count {
            let none = if valid == 0 { ". None validated" } else { "" };
            errors.push(composite(
                loc,
                format!("{path:?} must validate all the schemas (allOf){none}"),
            ));
        }
    }
    if let Some(not) = schema.get("not") {
        let mut found = Vec::new();
        node(value, not, loc, &mut found);
        if found.is_empty() {
            errors.push(composite(
                loc,
                format!("{path:?} must not validate the schema (not)"),
            ));
        }
    }
}

/// `maxLength`, `minLength`, `pattern`: the first that fails is the only error.
fn string(value: &Value, s: &str, schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    let length = s.chars().count() as u64;
    let path = loc.body();
    let invalid = |detail: String| {
        FieldError::new(
            loc.field(),
            FieldErrorKind::Invalid,
            Some(render_value(value)),
            detail,
        )
    };
    if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
        && length > max
    {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::TooLong,
            None,
            format!("may not be more than {max} bytes"),
        ));
    } else if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
        && length < min
    {
        errors.push(invalid(format!(
            "{path} in body should be at least {min} chars long"
        )));
    } else if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        match cached_regex(pattern) {
            Some(re) if !re.is_match(s) => {
                errors.push(invalid(format!("{path} in body should match '{pattern}'")));
            }
            Some(_) => {}
            None => errors.push(invalid(format!(
                "{path}: pattern {pattern:?} is not a valid regular expression"
            ))),
        }
    }
}

fn array(items: &[Value], schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    let count = items.len() as u64;
    if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
        && count < min
    {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::Invalid,
            Some(count.to_string()),
            format!("{} in body should have at least {min} items", loc.body()),
        ));
    }
    if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
        && count > max
    {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::TooMany,
            Some(count.to_string()),
            format!("must have at most {max} items"),
        ));
    }
    if let Some(item_schema) = schema.get("items") {
        for (i, item) in items.iter().enumerate() {
            node(item, item_schema, &loc.index(i), errors);
        }
    }
}

/// `minProperties` and `maxProperties` (either stops the object's other checks, as in
/// kube-openapi), the properties, then `required`.
fn object(
    map: &serde_json::Map<String, Value>,
    schema: &Value,
    loc: &Loc<'_>,
    errors: &mut Vec<FieldError>,
) {
    let count = map.len() as u64;
    if let Some(min) = schema.get("minProperties").and_then(Value::as_u64)
        && count < min
    {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::Invalid,
            Some(count.to_string()),
            format!(
                "{} in body should have at least {min} properties",
                loc.body()
            ),
        ));
        return;
    }
    if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64)
        && count > max
    {
        errors.push(FieldError::new(
            loc.field(),
            FieldErrorKind::TooMany,
            Some(count.to_string()),
            format!("must have at most {max} items"),
        ));
        return;
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for (key, child) in map {
        let child_schema = properties
            .and_then(|p| p.get(key))
            .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
        if let Some(child_schema) = child_schema {
            node(child, child_schema, &loc.child(key), errors);
        }
    }
    required(map, schema, loc, errors);
}

fn required(
    map: &serde_json::Map<String, Value>,
    schema: &Value,
    loc: &Loc<'_>,
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
                loc.child(name).field(),
                FieldErrorKind::Required,
                None,
                "",
            ));
        }
    }
}
