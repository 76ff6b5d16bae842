//! The attributes of a case, the same in both languages: markers and their values.

/// A schema attribute: a kubebuilder marker in Go, a webop attribute in Rust.
#[derive(Clone, Debug, PartialEq)]
pub enum Marker {
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf(Number),
    MinLength(u32),
    MaxLength(u32),
    Pattern(&'static str),
    Format(&'static str),
    MinItems(u32),
    MaxItems(u32),
    UniqueItems,
    MinProperties(u32),
    MaxProperties(u32),
    Enum(Vec<Value>),
    Nullable,
    Default(Value),
    Example(Value),
    Title(String),
    ListType(&'static str),
    ListMapKeys(Vec<String>),
    MapType(&'static str),
    StructType(&'static str),
    PreserveUnknownFields,
    EmbeddedResource,
    IntOrString,
    XValidation(Rule),
    AtMostOneOf(Vec<String>),
    ExactlyOneOf(Vec<String>),
    AtLeastOneOf(Vec<String>),
    Items(Vec<Marker>),
    ExternalDocs {
        url: &'static str,
        description: Option<String>,
    },
    Immutable,
}

/// A number as written in an attribute: an integer or a decimal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    /// Written with a fractional part (`1.5`).
    Float(f64),
}

/// A JSON value of a default, an example or an enum, in the shapes markers can spell.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    String(String),
    List(Vec<Value>),
    /// An object with string keys, in key order.
    Object(Vec<(String, Value)>),
}

/// `+kubebuilder:validation:XValidation` / `#[x_validation]`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Rule {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    pub reason: Option<&'static str>,
    pub field_path: Option<String>,
    pub optional_old_self: bool,
}

impl Value {
    /// The JSON text.
    pub fn json(&self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Float(v) => format!("{v:?}"),
            Value::Bool(v) => v.to_string(),
            Value::String(s) => serde_json::to_string(s).unwrap(),
            Value::List(items) => {
                let items: Vec<String> = items.iter().map(Value::json).collect();
                format!("[{}]", items.join(","))
            }
            Value::Object(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v.json()))
                    .collect();
                format!("{{{}}}", entries.join(","))
            }
        }
    }
}

impl Number {
    /// The number as both languages write it in an attribute.
    pub fn text(self) -> String {
        match self {
            Number::Int(v) => v.to_string(),
            Number::Float(v) => format!("{v:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_json() {
        let value = Value::Object(vec![
            (
                "a".into(),
                Value::List(vec![Value::Int(1), Value::Float(1.5)]),
            ),
            ("b".into(), Value::String("x\"y".into())),
        ]);
        assert_eq!(value.json(), r#"{"a":[1,1.5],"b":"x\"y"}"#);
        assert_eq!(Number::Float(2.0).text(), "2.0");
    }
}
