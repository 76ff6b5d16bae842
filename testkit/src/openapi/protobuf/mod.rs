//! The protobuf form of the Swagger 2.0 document: gnostic's `openapi.v2.Document` message, what
//! kube-apiserver serves for `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and
//! the only form client-go asks `/openapi/v2` for. The encoder reads the JSON document as
//! gnostic's parser does, for the keywords the testkit writes; any other keyword is an error, so
//! that the two forms cannot silently differ.

use serde_json::Value;

mod wire;

use wire::Message;

type Result<T = ()> = std::result::Result<T, String>;

fn text<'a>(value: &'a Value, at: &str) -> Result<&'a str> {
    value.as_str().ok_or_else(|| format!("{at}: not a string"))
}

fn flag(value: &Value, at: &str) -> Result<bool> {
    value
        .as_bool()
        .ok_or_else(|| format!("{at}: not a boolean"))
}

fn strings<'a>(value: &'a Value, at: &str) -> Result<Vec<&'a str>> {
    match value {
        Value::String(one) => Ok(vec![one]),
        Value::Array(all) => all.iter().map(|v| text(v, at)).collect(),
        _ => Err(format!("{at}: not a string or a list of strings")),
    }
}

fn entries<'a>(value: &'a Value, at: &str) -> Result<&'a serde_json::Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| format!("{at}: not an object"))
}

/// gnostic's `Any`: the value as YAML text (JSON is YAML).
fn any(m: &mut Message, field: u32, value: &Value) -> Result {
    m.message(field, |any| {
        any.string(2, &value.to_string());
        Ok(())
    })
}

/// A vendor extension (`x-...`) as gnostic's `NamedAny`.
fn extension(m: &mut Message, field: u32, name: &str, value: &Value) -> Result {
    m.message(field, |named| {
        named.string(1, name);
        any(named, 2, value)
    })
}

/// The JSON document as an `openapi.v2.Document`. Its fields are written in field-number
/// order, as Go's protobuf marshalling writes them; nested messages follow the JSON key order
/// (valid protobuf: parsers take fields in any order).
pub fn document(document: &Value) -> Result<Vec<u8>> {
    let fields = entries(document, "document")?;
    if let Some(other) = fields
        .keys()
        .find(|k| !matches!(k.as_str(), "swagger" | "info" | "paths" | "definitions"))
    {
        return Err(format!("{other}: not encoded"));
    }
    let mut m = Message::default();
    if let Some(swagger) = fields.get("swagger") {
        m.string(1, text(swagger, "swagger")?);
    }
    if let Some(info) = fields.get("info") {
        m.message(2, |m| self::info(m, info))?;
    }
    if let Some(paths) = fields.get("paths") {
        m.message(8, |m| {
            for (path, item) in entries(paths, "paths")? {
                m.message(2, |named| {
                    named.string(1, path);
                    named.message(2, |m| path_item(m, item, path))
                })?;
            }
            Ok(())
        })?;
    }
    if let Some(definitions) = fields.get("definitions") {
        m.message(9, |m| {
            for (name, value) in entries(definitions, "definitions")? {
                m.message(1, |named| named_schema(named, name, value))?;
            }
            Ok(())
        })?;
    }
    Ok(m.0)
}

fn info(m: &mut Message, info: &Value) -> Result {
    for (key, value) in entries(info, "info")? {
        match key.as_str() {
            "title" => m.string(1, text(value, key)?),
            "version" => m.string(2, text(value, key)?),
            "description" => m.string(3, text(value, key)?),
            other => return Err(format!("info.{other}: not encoded")),
        }
    }
    Ok(())
}

fn named_schema(m: &mut Message, name: &str, value: &Value) -> Result {
    m.string(1, name);
    m.message(2, |s| schema(s, value, name))
}

fn schema(m: &mut Message, value: &Value, at: &str) -> Result {
    for (key, value) in entries(value, at)? {
        let here = format!("{at}.{key}");
        match key.as_str() {
            "$ref" => m.string(1, text(value, &here)?),
            "format" => m.string(2, text(value, &here)?),
            "title" => m.string(3, text(value, &here)?),
            "description" => m.string(4, text(value, &here)?),
            "default" => any(m, 5, value)?,
            "multipleOf" => m.double(6, value.as_f64().unwrap_or_default()),
            "maximum" => m.double(7, value.as_f64().unwrap_or_default()),
            "exclusiveMaximum" => m.boolean(8, flag(value, &here)?),
            "minimum" => m.double(9, value.as_f64().unwrap_or_default()),
            "exclusiveMinimum" => m.boolean(10, flag(value, &here)?),
            "maxLength" => m.int64(11, value.as_i64().unwrap_or_default()),
            "minLength" => m.int64(12, value.as_i64().unwrap_or_default()),
            "pattern" => m.string(13, text(value, &here)?),
            "maxItems" => m.int64(14, value.as_i64().unwrap_or_default()),
            "minItems" => m.int64(15, value.as_i64().unwrap_or_default()),
            "uniqueItems" => m.boolean(16, flag(value, &here)?),
            "maxProperties" => m.int64(17, value.as_i64().unwrap_or_default()),
            "minProperties" => m.int64(18, value.as_i64().unwrap_or_default()),
            "required" => {
                for name in strings(value, &here)? {
                    m.bytes(19, name.as_bytes());
                }
            }
            "enum" => {
                for item in value.as_array().into_iter().flatten() {
                    any(m, 20, item)?;
                }
            }
            "additionalProperties" => m.message(21, |item| match value {
                Value::Bool(allowed) => {
                    item.key(2, 0);
                    item.varint(u64::from(*allowed));
                    Ok(())
                }
                other => item.message(1, |s| schema(s, other, &here)),
            })?,
            "type" => m.message(22, |types| {
                for name in strings(value, &here)? {
                    types.bytes(1, name.as_bytes());
                }
                Ok(())
            })?,
            "items" => m.message(23, |items| match value {
                Value::Array(all) => all
                    .iter()
                    .try_for_each(|one| items.message(1, |s| schema(s, one, &here))),
                one => items.message(1, |s| schema(s, one, &here)),
            })?,
            "allOf" => {
                for one in value.as_array().into_iter().flatten() {
                    m.message(24, |s| schema(s, one, &here))?;
                }
            }
            "properties" => m.message(25, |properties| {
                for (name, property) in entries(value, &here)? {
                    properties.message(1, |named| named_schema(named, name, property))?;
                }
                Ok(())
            })?,
            "readOnly" => m.boolean(27, flag(value, &here)?),
            "example" => any(m, 30, value)?,
            vendor if vendor.starts_with("x-") => extension(m, 31, vendor, value)?,
            other => return Err(format!("{at}: {other} is not a Swagger 2.0 schema keyword")),
        }
    }
    Ok(())
}

fn path_item(m: &mut Message, item: &Value, at: &str) -> Result {
    for (key, value) in entries(item, at)? {
        let here = format!("{at}.{key}");
        let field = match key.as_str() {
            "get" => 2,
            "put" => 3,
            "post" => 4,
            "delete" => 5,
            "patch" => 8,
            "parameters" => {
                for p in value.as_array().into_iter().flatten() {
                    m.message(9, |item| item.message(1, |m| parameter(m, p, &here)))?;
                }
                continue;
            }
            other => return Err(format!("{at}: {other} is not encoded")),
        };
        m.message(field, |m| operation(m, value, &here))?;
    }
    Ok(())
}

fn operation(m: &mut Message, operation: &Value, at: &str) -> Result {
    for (key, value) in entries(operation, at)? {
        let here = format!("{at}.{key}");
        match key.as_str() {
            "tags" | "produces" | "consumes" | "schemes" => {
                let field = match key.as_str() {
                    "tags" => 1,
                    "produces" => 6,
                    "consumes" => 7,
                    _ => 10,
                };
                for item in strings(value, &here)? {
                    m.bytes(field, item.as_bytes());
                }
            }
            "summary" => m.string(2, text(value, &here)?),
            "description" => m.string(3, text(value, &here)?),
            "operationId" => m.string(5, text(value, &here)?),
            "parameters" => {
                for p in value.as_array().into_iter().flatten() {
                    m.message(8, |item| item.message(1, |m| parameter(m, p, &here)))?;
                }
            }
            "responses" => m.message(9, |responses| {
                for (code, response) in entries(value, &here)? {
                    responses.message(1, |named| {
                        named.string(1, code);
                        named.message(2, |value| {
                            value.message(1, |r| self::response(r, response, &here))
                        })
                    })?;
                }
                Ok(())
            })?,
            "deprecated" => m.boolean(11, flag(value, &here)?),
            vendor if vendor.starts_with("x-") => extension(m, 13, vendor, value)?,
            other => return Err(format!("{at}: {other} is not encoded")),
        }
    }
    Ok(())
}

fn response(m: &mut Message, response: &Value, at: &str) -> Result {
    for (key, value) in entries(response, at)? {
        match key.as_str() {
            "description" => m.string(1, text(value, key)?),
            "schema" => m.message(2, |item| item.message(1, |s| schema(s, value, at)))?,
            other => return Err(format!("{at}: {other} is not encoded")),
        }
    }
    Ok(())
}

/// A parameter: gnostic's `Parameter`, a body parameter or a query or path one.
fn parameter(m: &mut Message, parameter: &Value, at: &str) -> Result {
    let location = parameter
        .get("in")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // Field numbers of: Parameter's oneof, and in the sub-schema required, in, description,
    // name, type, uniqueItems.
    let (oneof, fields): (&[u32], [u32; 6]) = match location {
        "body" => (&[1], [4, 3, 1, 2, 0, 0]),
        "query" => (&[2, 3], [1, 2, 3, 4, 6, 20]),
        "path" => (&[2, 4], [1, 2, 3, 4, 5, 19]),
        other => return Err(format!("{at}: parameters in {other:?} are not encoded")),
    };
    let encode = |m: &mut Message| -> Result {
        for (key, value) in entries(parameter, at)? {
            let [required, within, description, name, kind, unique] = fields;
            match key.as_str() {
                "required" => m.boolean(required, flag(value, key)?),
                "in" => m.string(within, text(value, key)?),
                "description" => m.string(description, text(value, key)?),
                "name" => m.string(name, text(value, key)?),
                "type" if kind != 0 => m.string(kind, text(value, key)?),
                "uniqueItems" if unique != 0 => m.boolean(unique, flag(value, key)?),
                "schema" if location == "body" => m.message(5, |s| schema(s, value, at))?,
                other => return Err(format!("{at}: parameter field {other} is not encoded")),
            }
        }
        Ok(())
    };
    match oneof {
        [body] => m.message(*body, encode),
        [non_body, kind] => m.message(*non_body, |m| m.message(*kind, encode)),
        _ => unreachable!("one or two levels of oneof"),
    }
}

#[cfg(test)]
mod tests {
    use super::wire::read::{field, fields};
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_encodes_as_gnostic_messages() {
        let bytes = document(&json!({
            "swagger": "2.0",
            "definitions": {"io.example.v1.Thing": {
                "type": "object", "description": "a thing", "required": ["spec"],
                "properties": {"spec": {"type": "integer", "minimum": 1}},
                "x-kubernetes-group-version-kind": [{"group": "example.io", "kind": "Thing", "version": "v1"}],
            }},
        }))
        .unwrap();
        assert_eq!(field(&bytes, 1), b"2.0");
        let named = field(&field(&bytes, 9), 1);
        assert_eq!(field(&named, 1), b"io.example.v1.Thing");
        let schema = field(&named, 2);
        assert_eq!(field(&schema, 4), b"a thing");
        assert_eq!(field(&schema, 19), b"spec");
        assert_eq!(field(&field(&schema, 22), 1), b"object");
        let spec = field(&field(&schema, 25), 1);
        assert_eq!(field(&spec, 1), b"spec");
        assert_eq!(field(&field(&spec, 2), 9), 1.0f64.to_le_bytes());
        let extension = field(&schema, 31);
        assert_eq!(field(&extension, 1), b"x-kubernetes-group-version-kind");
        let yaml: Value = serde_json::from_slice(&field(&field(&extension, 2), 2)).unwrap();
        assert_eq!(yaml[0]["kind"], "Thing");
    }

    #[test]
    fn a_keyword_swagger_lacks_is_an_error() {
        let error = document(&json!({"definitions": {"a": {"anyOf": []}}})).unwrap_err();
        assert_eq!(error, "a: anyOf is not a Swagger 2.0 schema keyword");
    }

    #[test]
    fn query_and_body_parameters_take_their_oneof_branches() {
        let bytes = document(&json!({"paths": {"/x": {"patch": {"parameters": [
            {"name": "body", "in": "body", "required": true, "schema": {"$ref": "#/definitions/P"}},
            {"name": "force", "in": "query", "type": "boolean", "uniqueItems": true},
        ]}}}}))
        .unwrap();
        let item = field(&field(&field(&bytes, 8), 2), 2);
        let patch = field(&item, 8);
        let parameters: Vec<Vec<u8>> = fields(&patch)
            .into_iter()
            .filter(|(n, _, _)| *n == 8)
            .map(|(_, _, p)| field(&p, 1))
            .collect();
        let body = field(&parameters[0], 1);
        assert_eq!(field(&body, 2), b"body");
        assert_eq!(field(&field(&body, 5), 1), b"#/definitions/P");
        let query = field(&field(&parameters[1], 2), 3);
        assert_eq!(field(&query, 4), b"force");
        assert_eq!(field(&query, 6), b"boolean");
    }
}
