//! kube-openapi's type check: a value against the schema's `type`, `format` and
//! `x-kubernetes-int-or-string`.

use serde_json::Value;

use super::numbers::is_json_integer;

/// The JSON type of a value as kube-openapi names it.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The types a schema allows (`x-kubernetes-int-or-string` allows two).
fn declared_types(schema: &Value) -> Vec<&str> {
    if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return vec!["integer", "string"];
    }
    schema
        .get("type")
        .and_then(Value::as_str)
        .into_iter()
        .collect()
}

/// kube-openapi's type check: the error, if any, as (the expected type or format, the value's
/// type or Go format).
pub fn type_error(value: &Value, schema: &Value) -> Option<(String, &'static str)> {
    let types = declared_types(schema);
    if types.is_empty() || value.is_null() {
        return None;
    }
    let actual = type_name(value);
    let float = value.as_f64().filter(|_| actual == "number");
    let float_int = float.is_some_and(is_json_integer) && types.contains(&"integer");
    let int_float = actual == "integer" && types.contains(&"number");
    let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
    let go_format = match actual {
        "integer" => "int64",
        "number" => "float64",
        _ => "",
    };
    if !value.is_string()
        && !value.is_array()
        && !format.is_empty()
        && !(types.contains(&actual)
            || go_format == format
            || float_int
            || int_float
            || (format == "int64" && go_format == "int32"))
    {
        return Some((format.to_string(), go_format));
    }
    if !types.contains(&actual) && !float_int && !int_float {
        return Some((types.join(","), actual));
    }
    None
}
