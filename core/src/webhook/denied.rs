//! Why a webhook refuses a request, shaped as the API server shows it. A [`Denied`] becomes the
//! AdmissionResponse's `status`; the API server prefixes its message with
//! `admission webhook "<name>" denied the request: ` and hands the rest to the client unchanged,
//! so `Denied::invalid` reads exactly like a failed CRD validation:
//! `WebApp.app.example.com "web" is invalid: spec.replicas: Invalid value: 11: at most 10`.

use kube_core::response::{Status, StatusCause, StatusDetails, StatusSummary};
use serde::Serialize;
use serde_json::Value;

/// Messages the API server passes to the client (`kubectl` prints them as `Warning: ...`).
pub type Warnings = Vec<String>;

/// One field-level problem (`k8s.io/apimachinery/pkg/util/validation/field.Error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    kind: FieldErrorKind,
    field: String,
    /// The bad value as Go prints it; `None` for the kinds that leave it out.
    value: Option<String>,
    detail: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldErrorKind {
    Invalid,
    Required,
    Forbidden,
    NotSupported,
    Duplicate,
}

impl FieldErrorKind {
    /// `field.ErrorType.String()`.
    fn label(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid value",
            Self::Required => "Required value",
            Self::Forbidden => "Forbidden",
            Self::NotSupported => "Unsupported value",
            Self::Duplicate => "Duplicate value",
        }
    }

    /// The `StatusCause.reason` (`metav1.CauseType`).
    fn reason(self) -> &'static str {
        match self {
            Self::Invalid => "FieldValueInvalid",
            Self::Required => "FieldValueRequired",
            Self::Forbidden => "FieldValueForbidden",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Duplicate => "FieldValueDuplicate",
        }
    }
}

/// A value as `field.Error` prints it: numbers and booleans bare, strings quoted, `null`;
/// objects and lists (which Go prints as Go syntax) as JSON.
fn render(value: impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(text)) => format!("{text:?}"),
        Ok(other) => other.to_string(),
        Err(error) => format!("<unprintable: {error}>"),
    }
}

impl FieldError {
    fn new(kind: FieldErrorKind, field: impl Into<String>, value: Option<String>) -> Self {
        FieldError {
            kind,
            field: field.into(),
            value,
            detail: String::new(),
        }
    }

    fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = detail.into();
        self
    }

    /// `field.Invalid`: `spec.replicas: Invalid value: 11: must be at most 10`.
    pub fn invalid(
        path: impl Into<String>,
        value: impl Serialize,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(FieldErrorKind::Invalid, path, Some(render(value))).with_detail(detail)
    }

    /// `field.Required`: `spec.image: Required value: an image is needed`.
    pub fn required(path: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Required, path, None).with_detail(detail)
    }

    /// `field.Forbidden`: `spec.port: Forbidden: may not change`.
    pub fn forbidden(path: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(FieldErrorKind::Forbidden, path, None).with_detail(detail)
    }

    /// `field.NotSupported`: `spec.tier: Unsupported value: "gold": supported values: "free", "paid"`.
    pub fn not_supported(path: impl Into<String>, value: impl Serialize, valid: &[&str]) -> Self {
        let quoted: Vec<String> = valid.iter().map(|v| format!("{v:?}")).collect();
        let detail = if quoted.is_empty() {
            String::new()
        } else {
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(FieldErrorKind::NotSupported, path, Some(render(value))).with_detail(detail)
    }

    /// `field.Duplicate`: `spec.ports[1].name: Duplicate value: "http"`.
    pub fn duplicate(path: impl Into<String>, value: impl Serialize) -> Self {
        Self::new(FieldErrorKind::Duplicate, path, Some(render(value)))
    }

    /// The field path, e.g. `spec.replicas`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What follows the path (`field.Error.ErrorBody`): `Invalid value: 11: must be at most 10`.
    pub fn body(&self) -> String {
        let mut body = self.kind.label().to_owned();
        if let Some(value) = &self.value {
            body.push_str(": ");
            body.push_str(value);
        }
        if !self.detail.is_empty() {
            body.push_str(": ");
            body.push_str(&self.detail);
        }
        body
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// A refused request. Give it the warnings found so far with [`Denied::with_warnings`]: the
/// client sees them next to the denial, as controller-runtime sends them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denied {
    reason: Reason,
    warnings: Warnings,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Reason {
    Invalid(Vec<FieldError>),
    Forbidden(String),
    BadRequest(String),
}

impl Denied {
    /// 422 Invalid, as `apierrors.NewInvalid` (the runtime fills in the kind and name):
    /// `WebApp.app.example.com "web" is invalid: spec.replicas: Invalid value: 11: ...`.
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        Self::of(Reason::Invalid(errors))
    }

    /// 403 Forbidden with `message`, as controller-runtime denies on a plain error.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::of(Reason::Forbidden(message.into()))
    }

    /// 400 BadRequest with `message`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::of(Reason::BadRequest(message.into()))
    }

    fn of(reason: Reason) -> Self {
        Denied {
            reason,
            warnings: Vec::new(),
        }
    }

    /// The same denial, with `warnings` for the client.
    pub fn with_warnings(mut self, warnings: Warnings) -> Self {
        self.warnings = warnings;
        self
    }

    /// The warnings sent with the denial.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The `Status` of the AdmissionResponse for the object `name` of `kind` in `group`.
    pub fn status(&self, group: &str, kind: &str, name: &str) -> Status {
        match &self.reason {
            Reason::Forbidden(message) => failure(403, "Forbidden", message.clone()),
            Reason::BadRequest(message) => failure(400, "BadRequest", message.clone()),
            Reason::Invalid(errors) => {
                let qualified = if group.is_empty() {
                    kind.to_owned()
                } else {
                    format!("{kind}.{group}")
                };
                let message = match aggregate(errors) {
                    Some(list) => format!("{qualified} {name:?} is invalid: {list}"),
                    None => format!("{qualified} {name:?} is invalid"),
                };
                let causes = errors
                    .iter()
                    .map(|error| StatusCause {
                        reason: error.kind.reason().to_owned(),
                        message: error.body(),
                        field: error.field.clone(),
                    })
                    .collect();
                failure(422, "Invalid", message).with_details(StatusDetails {
                    name: name.to_owned(),
                    group: group.to_owned(),
                    kind: kind.to_owned(),
                    uid: String::new(),
                    causes,
                    retry_after_seconds: 0,
                })
            }
        }
    }
}

fn failure(code: u16, reason: &str, message: String) -> Status {
    Status {
        status: Some(StatusSummary::Failure),
        code,
        message,
        metadata: None,
        reason: reason.to_owned(),
        details: None,
    }
}

/// apimachinery's `ErrorList.ToAggregate().Error()`: one error as itself, several as
/// `[a, b]`, each distinct message once.
fn aggregate(errors: &[FieldError]) -> Option<String> {
    let mut seen: Vec<String> = Vec::new();
    for error in errors {
        let text = error.to_string();
        if !seen.contains(&text) {
            seen.push(text);
        }
    }
    match seen.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        many => Some(format!("[{}]", many.join(", "))),
    }
}

impl std::fmt::Display for Denied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.reason {
            Reason::Forbidden(message) | Reason::BadRequest(message) => f.write_str(message),
            Reason::Invalid(errors) => f.write_str(&aggregate(errors).unwrap_or_default()),
        }
    }
}

impl std::error::Error for Denied {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_read_as_apimachinery_prints_them() {
        let cases = [
            (
                FieldError::invalid("spec.replicas", 11, "must be at most 10"),
                "spec.replicas: Invalid value: 11: must be at most 10",
            ),
            (
                FieldError::invalid("spec.image", "nginx:", "has no tag"),
                "spec.image: Invalid value: \"nginx:\": has no tag",
            ),
            (
                FieldError::required("spec.image", "an image is needed"),
                "spec.image: Required value: an image is needed",
            ),
            (
                FieldError::forbidden("spec.port", "may not change"),
                "spec.port: Forbidden: may not change",
            ),
            (
                FieldError::not_supported("spec.tier", "gold", &["free", "paid"]),
                "spec.tier: Unsupported value: \"gold\": supported values: \"free\", \"paid\"",
            ),
            (
                FieldError::duplicate("spec.ports[1].name", "http"),
                "spec.ports[1].name: Duplicate value: \"http\"",
            ),
            (
                FieldError::invalid("spec.enabled", false, ""),
                "spec.enabled: Invalid value: false",
            ),
        ];
        for (error, expected) in cases {
            assert_eq!(error.to_string(), expected);
        }
    }

    #[test]
    fn invalid_is_apierrors_new_invalid() {
        let denied = Denied::invalid(vec![
            FieldError::invalid("spec.replicas", 11, "must be at most 10"),
            FieldError::required("spec.image", "an image is needed"),
            FieldError::invalid("spec.replicas", 11, "must be at most 10"),
        ]);
        let status = denied.status("app.example.com", "WebApp", "web");
        assert_eq!(
            status.message,
            "WebApp.app.example.com \"web\" is invalid: [spec.replicas: Invalid value: 11: must \
             be at most 10, spec.image: Required value: an image is needed]"
        );
        assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
        let details = status.details.unwrap();
        assert_eq!(
            (details.kind.as_str(), details.name.as_str()),
            ("WebApp", "web")
        );
        assert_eq!(details.causes.len(), 3, "the causes keep every error");
        assert_eq!(details.causes[1].reason, "FieldValueRequired");
        assert_eq!(
            details.causes[1].message,
            "Required value: an image is needed"
        );

        let one = Denied::invalid(vec![FieldError::forbidden("spec.port", "may not change")]);
        assert_eq!(
            one.status("", "ConfigMap", "c").message,
            "ConfigMap \"c\" is invalid: spec.port: Forbidden: may not change"
        );
        assert_eq!(
            Denied::invalid(vec![]).status("g", "K", "n").message,
            "K.g \"n\" is invalid"
        );
    }

    #[test]
    fn plain_denials_keep_their_message() {
        let forbidden = Denied::forbidden("replicas may only grow").with_warnings(vec!["w".into()]);
        let status = forbidden.status("app.example.com", "WebApp", "web");
        assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
        assert_eq!(status.message, "replicas may only grow");
        assert_eq!(forbidden.warnings(), ["w"]);
        let bad = Denied::bad_request("no object").status("", "K", "n");
        assert_eq!((bad.code, bad.message.as_str()), (400, "no object"));
    }
}
