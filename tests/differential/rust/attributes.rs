//! Attributes in Rust: a case's markers as `#[validate(...)]`, `#[schema(...)]` and
//! `#[x_validation(...)]`, and values as attribute literals.

use std::fmt::Write;

use super::super::model::{Marker, Rule, Value};

/// The attributes of `markers`: one `#[validate(...)]`, one `#[schema(...)]`, and one
/// `#[x_validation(...)]` per rule.
pub fn attributes(out: &mut String, indent: &str, markers: &[Marker]) {
    let mut validate = Vec::new();
    let mut schema = Vec::new();
    for marker in markers {
        match marker {
            Marker::XValidation(rule) => {
                writeln!(out, "{indent}#[x_validation({})]", x_validation(rule)).unwrap();
            }
            _ => match argument(marker) {
                (Family::Validate, text) => validate.push(text),
                (Family::Schema, text) => schema.push(text),
            },
        }
    }
    if !validate.is_empty() {
        writeln!(out, "{indent}#[validate({})]", validate.join(", ")).unwrap();
    }
    if !schema.is_empty() {
        writeln!(out, "{indent}#[schema({})]", schema.join(", ")).unwrap();
    }
}

enum Family {
    Validate,
    Schema,
}

fn argument(marker: &Marker) -> (Family, String) {
    use Family::{Schema, Validate};
    let strings = |items: &[String]| format!("{items:?}");
    match marker {
        Marker::Minimum(n) => (Validate, format!("minimum = {}", n.text())),
        Marker::Maximum(n) => (Validate, format!("maximum = {}", n.text())),
        Marker::ExclusiveMinimum => (Validate, "exclusive_minimum".into()),
        Marker::ExclusiveMaximum => (Validate, "exclusive_maximum".into()),
        Marker::MultipleOf(n) => (Validate, format!("multiple_of = {}", n.text())),
        Marker::MinLength(n) => (Validate, format!("min_length = {n}")),
        Marker::MaxLength(n) => (Validate, format!("max_length = {n}")),
        Marker::Pattern(p) => (Validate, format!("pattern = r#\"{p}\"#")),
        Marker::Format(f) => (Validate, format!("format = {f:?}")),
        Marker::MinItems(n) => (Validate, format!("min_items = {n}")),
        Marker::MaxItems(n) => (Validate, format!("max_items = {n}")),
        Marker::UniqueItems => (Validate, "unique_items".into()),
        Marker::MinProperties(n) => (Validate, format!("min_properties = {n}")),
        Marker::MaxProperties(n) => (Validate, format!("max_properties = {n}")),
        Marker::Enum(values) => {
            let values: Vec<String> = values.iter().map(rust_value).collect();
            (Validate, format!("enum = [{}]", values.join(", ")))
        }
        Marker::EmbeddedResource => (Validate, "embedded_resource".into()),
        Marker::IntOrString => (Validate, "int_or_string".into()),
        Marker::AtMostOneOf(f) => (Validate, format!("at_most_one_of = {}", strings(f))),
        Marker::ExactlyOneOf(f) => (Validate, format!("exactly_one_of = {}", strings(f))),
        Marker::AtLeastOneOf(f) => (Validate, format!("at_least_one_of = {}", strings(f))),
        Marker::Items(items) => {
            let items: Vec<String> = items.iter().map(|m| argument(m).1).collect();
            (Validate, format!("items({})", items.join(", ")))
        }
        Marker::Nullable => (Schema, "nullable".into()),
        Marker::Default(value) => (Schema, format!("default = {}", rust_value(value))),
        Marker::Example(value) => (Schema, format!("example = {}", rust_value(value))),
        Marker::Title(title) => (Schema, format!("title = {title:?}")),
        Marker::ListType(t) => (Schema, format!("list_type = {t:?}")),
        Marker::ListMapKeys(keys) => (Schema, format!("list_map_key = {}", strings(keys))),
        Marker::MapType(t) => (Schema, format!("map_type = {t:?}")),
        Marker::StructType(t) => (Schema, format!("struct_type = {t:?}")),
        Marker::PreserveUnknownFields => (Schema, "preserve_unknown_fields".into()),
        Marker::ExternalDocs { url, description } => {
            let mut args = format!("url = {url:?}");
            if let Some(description) = description {
                write!(args, ", description = {description:?}").unwrap();
            }
            (Schema, format!("external_docs({args})"))
        }
        Marker::Immutable => (Schema, "immutable".into()),
        Marker::XValidation(_) => unreachable!("an attribute of its own"),
    }
}

fn x_validation(rule: &Rule) -> String {
    let mut args = format!("rule = {:?}", rule.rule);
    if let Some(message) = &rule.message {
        write!(args, ", message = {message:?}").unwrap();
    }
    if let Some(expression) = &rule.message_expression {
        write!(args, ", message_expression = {expression:?}").unwrap();
    }
    if let Some(reason) = rule.reason {
        write!(args, ", reason = {reason:?}").unwrap();
    }
    if let Some(path) = &rule.field_path {
        write!(args, ", field_path = {path:?}").unwrap();
    }
    if rule.optional_old_self {
        args.push_str(", optional_old_self");
    }
    args
}

/// A value as an attribute writes it: a literal, an array of literals, or `json(...)`.
fn rust_value(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Float(v) => format!("{v:?}"),
        Value::Bool(v) => v.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::List(items) if items.iter().all(|i| !matches!(i, Value::Object(_))) => {
            let items: Vec<String> = items.iter().map(rust_value).collect();
            format!("[{}]", items.join(", "))
        }
        Value::List(_) | Value::Object(_) => format!("json(r#\"{}\"#)", value.json()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::model::Rule;
    use super::*;

    #[test]
    fn values_are_literals_or_json() {
        let list = Value::List(vec![Value::Int(-1), Value::String("a".into())]);
        assert_eq!(rust_value(&list), r#"[-1, "a"]"#);
        let object = Value::Object(vec![("k".into(), Value::Bool(true))]);
        assert_eq!(rust_value(&object), r##"json(r#"{"k":true}"#)"##);
    }

    #[test]
    fn markers_group_into_their_attributes() {
        let mut out = String::new();
        attributes(
            &mut out,
            "",
            &[
                Marker::MaxLength(3),
                Marker::Nullable,
                Marker::XValidation(Rule {
                    rule: "self != ''".into(),
                    ..Rule::default()
                }),
                Marker::Items(vec![Marker::MinLength(1)]),
            ],
        );
        assert_eq!(
            out,
            "#[x_validation(rule = \"self != ''\")]\n#[validate(max_length = 3, items(min_length = 1))]\n#[schema(nullable)]\n"
        );
    }
}
