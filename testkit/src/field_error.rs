//! Field-level problems (apimachinery's `field.Error`): the causes of a 422 `Invalid` status,
//! worded as the API server words them.

use serde_json::Value;

/// One field-level problem inside a 422 `Invalid` status (a `StatusCause`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The field path as Kubernetes prints it: `spec.replicas`, `spec.ports[0].port`.
    pub field: String,
    /// The kind of problem (`field.ErrorType`).
    pub kind: FieldErrorKind,
    /// The rejected value, rendered as Go's `%#v`-like form Kubernetes uses (`11`, `"abc"`).
    pub value: Option<String>,
    /// The rule that was broken, e.g. `spec.replicas in body should be less than or equal to 10`.
    pub detail: String,
}

/// `field.ErrorType` of apimachinery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldErrorKind {
    /// `FieldValueInvalid`.
    Invalid,
    /// `FieldValueRequired`.
    Required,
    /// `FieldValueNotSupported`.
    NotSupported,
    /// `FieldValueDuplicate`.
    Duplicate,
    /// `FieldValueTooMany`.
    TooMany,
    /// `FieldValueTooLong`.
    TooLong,
    /// `FieldValueForbidden`.
    Forbidden,
    /// `FieldValueTypeInvalid` (printed as "Invalid value").
    TypeInvalid,
}

impl FieldErrorKind {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Self::Invalid => "FieldValueInvalid",
            Self::TypeInvalid => "FieldValueTypeInvalid",
            Self::Required => "FieldValueRequired",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Duplicate => "FieldValueDuplicate",
            Self::TooMany => "FieldValueTooMany",
            Self::TooLong => "FieldValueTooLong",
            Self::Forbidden => "FieldValueForbidden",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::Required => "Required value",
            Self::NotSupported => "Unsupported value",
            Self::Duplicate => "Duplicate value",
            Self::TooMany => "Too many",
            Self::TooLong => "Too long",
            Self::Forbidden => "Forbidden",
        }
    }
}

/// The field path of an error about the object as a whole: Go's nil `*field.Path`, as the API
/// server prints it.
pub const NIL_FIELD: &str = "<nil>";

impl FieldError {
    /// A field error with a value.
    pub fn new(
        field: impl Into<String>,
        kind: FieldErrorKind,
        value: Option<String>,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            kind,
            value,
            detail: detail.into(),
        }
    }

    /// What follows the field path: `Invalid value: 11: spec.replicas in body should be ...`.
    pub fn body(&self) -> String {
        let mut out = self.kind.label().to_string();
        if let Some(value) = &self.value {
            out.push_str(": ");
            out.push_str(value);
        }
        if !self.detail.is_empty() {
            out.push_str(": ");
            out.push_str(&self.detail);
        }
        out
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.body())
        } else {
            write!(f, "{}: {}", self.field, self.body())
        }
    }
}

/// Renders a JSON value as Kubernetes does in field errors: strings quoted, numbers and `null`
/// bare, objects and arrays by their type name.
pub fn render_value(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        Value::Object(_) => "\"object\"".to_string(),
        Value::Array(_) => "\"array\"".to_string(),
        Value::Null => "null".to_string(),
        other => other.to_string(),
    }
}
