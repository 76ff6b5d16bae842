//! A keyword's value written as the attribute of the marker that carries it, by the marker's
//! `Payload` (the catalogue says how each value is spelled): `minimum = 1`, `pattern = "..."`,
//! `enum = ["A", "B"]`, `default = json(r#"{"a":1}"#)`, `#[x_validation(rule = "...")]`.

use serde_json::Value;
use webop_markers::{Family, MarkerSpec, Payload, RecordField, TextRule};

use super::keywords::{camel, family};

/// One marker as written: `key = value` inside `#[validate(...)]` or `#[schema(...)]`, or the
/// arguments of its own attribute (`#[x_validation(...)]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub family: Family,
    pub text: String,
}

/// The markers `spec` writes for `value` (several for a repeatable marker, one per list
/// element), or why the value cannot be written.
pub fn write(spec: &MarkerSpec, value: &Value) -> Result<Vec<Written>, String> {
    let family = family(spec);
    let values: Vec<&Value> = if spec.repeatable {
        value
            .as_array()
            .ok_or("a list was expected")?
            .iter()
            .collect()
    } else {
        vec![value]
    };
    values
        .into_iter()
        .map(|value| {
            let text = match (family, spec.payload) {
                (Family::XValidation, Payload::Record(fields)) => record(fields, value)?,
                (_, Payload::Record(fields)) => format!("{}({})", spec.key, record(fields, value)?),
                (_, payload) => match payload_text(payload, value)? {
                    None => spec.key.to_owned(),
                    Some(text) => format!("{} = {text}", spec.key),
                },
            };
            Ok(Written { family, text })
        })
        .collect()
}

/// The value's spelling after `key = `, or `None` for a bare key.
fn payload_text(payload: Payload, value: &Value) -> Result<Option<String>, String> {
    Ok(Some(match payload {
        Payload::Bare | Payload::Flag => {
            return match value {
                Value::Bool(true) => Ok(None),
                _ => Err(format!("only `true` can be written, found {value}")),
            };
        }
        Payload::Number => match value {
            Value::Number(n) => n.to_string(),
            _ => return Err(format!("a number was expected, found {value}")),
        },
        Payload::Count => match value.as_i64() {
            Some(n) if n >= 0 => n.to_string(),
            _ => return Err(format!("a count was expected, found {value}")),
        },
        Payload::Text(rule) => {
            let text = value
                .as_str()
                .ok_or(format!("a string was expected, found {value}"))?;
            check_text(rule, text)?;
            string_literal(text)
        }
        Payload::Texts => {
            let items = value.as_array().ok_or("a list of strings was expected")?;
            let texts: Result<Vec<String>, String> = items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(string_literal)
                        .ok_or(format!("a string was expected, found {v}"))
                })
                .collect();
            format!("[{}]", texts?.join(", "))
        }
        Payload::Value | Payload::Json => value_literal(value),
        Payload::Values => {
            let items = value.as_array().ok_or("a list was expected")?;
            let mut out = Vec::new();
            for item in items {
                if !is_scalar(item) {
                    return Err(format!("a list of scalars was expected, found {item}"));
                }
                out.push(value_literal(item));
            }
            format!("[{}]", out.join(", "))
        }
        Payload::Items | Payload::Record(_) => {
            return Err("not a value of its own".into());
        }
    }))
}

fn check_text(rule: TextRule, text: &str) -> Result<(), String> {
    match rule {
        TextRule::OneOf(values) if !values.contains(&text) => {
            Err(format!("{text:?} is not one of {values:?}"))
        }
        TextRule::NonEmpty if text.is_empty() => Err("an empty string".into()),
        TextRule::Pattern if regex_syntax::Parser::new().parse(text).is_err() => Err(format!(
            "{text:?} is no regular expression webop can check (RE2 syntax)"
        )),
        _ => Ok(()),
    }
}

/// A record's entries: `rule = "...", message = "..."` in the catalogue's order.
fn record(fields: &[RecordField], value: &Value) -> Result<String, String> {
    let object = value.as_object().ok_or("an object was expected")?;
    for key in object.keys() {
        if !fields.iter().any(|f| camel(f.key) == *key) {
            return Err(format!("`{key}` has no attribute entry"));
        }
    }
    let mut out = Vec::new();
    for field in fields {
        match object.get(&camel(field.key)) {
            Some(value) => match payload_text(field.payload, value)? {
                None => out.push(field.key.to_owned()),
                Some(text) => out.push(format!("{} = {text}", field.key)),
            },
            None if field.required => return Err(format!("`{}` is missing", camel(field.key))),
            None => {}
        }
    }
    Ok(out.join(", "))
}

fn is_scalar(value: &Value) -> bool {
    matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// A JSON value as an attribute value: a literal for a string, number or boolean,
/// `json(r#"..."#)` for anything else.
pub fn value_literal(value: &Value) -> String {
    match value {
        Value::String(s) => string_literal(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => format!("json({})", raw_literal(&value.to_string())),
    }
}

/// A Rust string literal of `text`: raw (`r#"..."#`) when it holds backslashes or quotes, which
/// reads better in patterns and CEL rules.
pub fn string_literal(text: &str) -> String {
    let plain = text
        .chars()
        .all(|c| !c.is_control() || c == '\n' || c == '\t');
    if plain && (text.contains('\\') || text.contains('"')) && !text.contains('\n') {
        raw_literal(text)
    } else {
        format!("{text:?}")
    }
}

fn raw_literal(text: &str) -> String {
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use webop_markers::MarkerKind;

    fn texts(kind: MarkerKind, value: Value) -> Vec<String> {
        write(kind.spec(), &value)
            .unwrap()
            .into_iter()
            .map(|w| w.text)
            .collect()
    }

    #[test]
    fn values_are_spelled_by_their_payload() {
        assert_eq!(texts(MarkerKind::Minimum, json!(1)), ["minimum = 1"]);
        assert_eq!(
            texts(MarkerKind::UniqueItems, json!(true)),
            ["unique_items"]
        );
        assert_eq!(
            texts(MarkerKind::Pattern, json!(r"^\d+$")),
            [r###"pattern = r#"^\d+$"#"###]
        );
        assert_eq!(
            texts(MarkerKind::Enum, json!(["A", 1])),
            [r#"enum = ["A", 1]"#]
        );
        assert_eq!(
            texts(MarkerKind::Default, json!({"a": 1})),
            [r###"default = json(r#"{"a":1}"#)"###]
        );
        assert_eq!(
            texts(
                MarkerKind::XValidation,
                json!([{"rule": "self > 0", "message": "positive"}, {"rule": "true"}])
            ),
            [
                r#"rule = "self > 0", message = "positive""#,
                r#"rule = "true""#
            ]
        );
        assert_eq!(
            texts(
                MarkerKind::ExternalDocs,
                json!({"url": "https://x.example"})
            ),
            [r#"external_docs(url = "https://x.example")"#]
        );
    }

    #[test]
    fn what_no_attribute_spells_is_refused() {
        assert!(write(MarkerKind::ExclusiveMinimum.spec(), &json!(false)).is_err());
        assert!(write(MarkerKind::ListType.spec(), &json!("sometimes")).is_err());
        assert!(
            write(
                MarkerKind::XValidation.spec(),
                &json!([{"rule": "x", "other": 1}])
            )
            .is_err()
        );
        assert!(write(MarkerKind::Pattern.spec(), &json!("(")).is_err());
    }
}
