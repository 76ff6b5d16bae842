//! Markers in Go: the lines of kubebuilder markers, their values in the marker syntax, and Go
//! string literals.

use std::fmt::Write;

use super::super::model::{Marker, Rule, Value};

/// The marker lines of `markers`: `items(...)` markers with the items prefix, one `+listMapKey`
/// per key.
pub fn markers(markers: &[Marker]) -> Vec<String> {
    let mut lines = Vec::new();
    for marker in markers {
        match marker {
            Marker::Items(items) => {
                for item in items {
                    lines.push(marker_line(item).replacen(
                        "+kubebuilder:validation:",
                        "+kubebuilder:validation:items:",
                        1,
                    ));
                }
            }
            Marker::ListMapKeys(keys) => {
                lines.extend(keys.iter().map(|k| format!("+listMapKey={k}")));
            }
            _ => lines.push(marker_line(marker)),
        }
    }
    lines
}

/// The marker line of one marker (`items(...)` markers are spelled by `markers`).
pub fn marker_line(marker: &Marker) -> String {
    const V: &str = "+kubebuilder:validation:";
    match marker {
        Marker::Minimum(n) => format!("{V}Minimum={}", n.text()),
        Marker::Maximum(n) => format!("{V}Maximum={}", n.text()),
        Marker::ExclusiveMinimum => format!("{V}ExclusiveMinimum=true"),
        Marker::ExclusiveMaximum => format!("{V}ExclusiveMaximum=true"),
        Marker::MultipleOf(n) => format!("{V}MultipleOf={}", n.text()),
        Marker::MinLength(n) => format!("{V}MinLength={n}"),
        Marker::MaxLength(n) => format!("{V}MaxLength={n}"),
        Marker::Pattern(p) => format!("{V}Pattern=`{p}`"),
        Marker::Format(f) => format!("{V}Format={f}"),
        Marker::MinItems(n) => format!("{V}MinItems={n}"),
        Marker::MaxItems(n) => format!("{V}MaxItems={n}"),
        Marker::UniqueItems => format!("{V}UniqueItems=true"),
        Marker::MinProperties(n) => format!("{V}MinProperties={n}"),
        Marker::MaxProperties(n) => format!("{V}MaxProperties={n}"),
        Marker::Enum(values) => {
            let values: Vec<String> = values.iter().map(marker_value).collect();
            format!("{V}Enum={}", values.join(";"))
        }
        Marker::Nullable => "+nullable".to_owned(),
        Marker::Default(value) => format!("+kubebuilder:default={}", marker_value(value)),
        Marker::Example(value) => format!("+kubebuilder:example={}", marker_value(value)),
        Marker::Title(title) => format!("+kubebuilder:title={}", go_string(title)),
        Marker::ListType(t) => format!("+listType={t}"),
        Marker::ListMapKeys(_) | Marker::Items(_) => unreachable!("spelled by `markers`"),
        Marker::MapType(t) => format!("+mapType={t}"),
        Marker::StructType(t) => format!("+structType={t}"),
        Marker::PreserveUnknownFields => "+kubebuilder:pruning:PreserveUnknownFields".to_owned(),
        Marker::EmbeddedResource => format!("{V}EmbeddedResource"),
        Marker::IntOrString => format!("{V}XIntOrString"),
        Marker::XValidation(rule) => x_validation(rule),
        Marker::AtMostOneOf(fields) => format!("{V}AtMostOneOf={}", fields.join(";")),
        Marker::ExactlyOneOf(fields) => format!("{V}ExactlyOneOf={}", fields.join(";")),
        Marker::AtLeastOneOf(fields) => format!("{V}AtLeastOneOf={}", fields.join(";")),
        Marker::ExternalDocs { url, description } => {
            let mut line = format!("+kubebuilder:externalDocs:url={}", go_string(url));
            if let Some(description) = description {
                write!(line, ",description={}", go_string(description)).unwrap();
            }
            line
        }
        Marker::Immutable => "+k8s:immutable".to_owned(),
    }
}

fn x_validation(rule: &Rule) -> String {
    let mut line = format!(
        "+kubebuilder:validation:XValidation:rule={}",
        go_string(&rule.rule)
    );
    if let Some(message) = &rule.message {
        write!(line, ",message={}", go_string(message)).unwrap();
    }
    if let Some(expression) = &rule.message_expression {
        write!(line, ",messageExpression={}", go_string(expression)).unwrap();
    }
    if let Some(reason) = rule.reason {
        write!(line, ",reason={reason}").unwrap();
    }
    if let Some(path) = &rule.field_path {
        write!(line, ",fieldPath={}", go_string(path)).unwrap();
    }
    if rule.optional_old_self {
        line.push_str(",optionalOldSelf=true");
    }
    line
}

/// A Go string literal, which the marker parser reads as Go does.
pub fn go_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => panic!("generated strings are one line: {s:?}"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A value in the marker syntax: `1`, `1.5`, `true`, `"text"`, `{1,2}`, `{key: value}`.
fn marker_value(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Float(v) => format!("{v:?}"),
        Value::Bool(v) => v.to_string(),
        Value::String(s) => go_string(s),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(marker_value).collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Object(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", go_string(k), marker_value(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::model::Number;

    #[test]
    fn marker_values_use_the_marker_syntax() {
        let value = Value::Object(vec![
            ("a".into(), Value::List(vec![Value::Int(1), Value::Int(-2)])),
            ("b".into(), Value::String("x y".into())),
        ]);
        assert_eq!(marker_value(&value), r#"{"a": {1,-2}, "b": "x y"}"#);
    }

    #[test]
    fn items_markers_get_the_items_prefix() {
        let lines = markers(&[
            Marker::Items(vec![Marker::MaxLength(3), Marker::Minimum(Number::Int(1))]),
            Marker::ListType("set"),
        ]);
        assert_eq!(
            lines,
            [
                "+kubebuilder:validation:items:MaxLength=3",
                "+kubebuilder:validation:items:Minimum=1",
                "+listType=set",
            ]
        );
    }

    #[test]
    fn rules_spell_every_argument() {
        let rule = Rule {
            rule: "self.a <= self.b".into(),
            message: Some("a must not exceed b".into()),
            reason: Some("FieldValueInvalid"),
            field_path: Some(".a".into()),
            ..Rule::default()
        };
        assert_eq!(
            x_validation(&rule),
            "+kubebuilder:validation:XValidation:rule=\"self.a <= self.b\",message=\"a must not exceed b\",reason=FieldValueInvalid,fieldPath=\".a\""
        );
    }
}
