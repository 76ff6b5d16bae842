//! Kubernetes `Status` errors, shaped as the API server writes them (`k8s.io/apimachinery`'s
//! `StatusError`): same codes, reasons, messages and details, so client code that matches on them
//! (`is_conflict`, `reason == "AlreadyExists"`, the 422 causes) behaves as it would in a cluster.

use serde_json::{Value, json};

pub use super::field_error::{FieldError, FieldErrorKind, NIL_FIELD, render_value};

/// An API error: the HTTP status code and the `Status` object sent as the body.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status code.
    pub code: u16,
    /// `Status.reason`.
    pub reason: &'static str,
    /// `Status.message`.
    pub message: String,
    /// `Status.details`, when the reason carries them.
    pub details: Option<Value>,
}

/// Identifies the object an error is about, for `Status.details`.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// API group (empty for core).
    pub group: &'a str,
    /// Resource plural as used in messages (`configmaps`) or kind for 422s.
    pub resource: &'a str,
    /// Object name.
    pub name: &'a str,
}

impl<'a> Subject<'a> {
    /// `configmaps` or `webapps.app.example.com`, as in Kubernetes messages.
    fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.resource.to_string()
        } else {
            format!("{}.{}", self.resource, self.group)
        }
    }

    /// `Status.details`; the core group is left out, as Go's omitempty leaves it out.
    pub fn details(&self) -> Value {
        let mut details = json!({"name": self.name, "group": self.group, "kind": self.resource});
        if self.group.is_empty() {
            details.as_object_mut().map(|d| d.remove("group"));
        }
        details
    }
}

impl ApiError {
    fn plain(code: u16, reason: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            reason,
            message: message.into(),
            details: None,
        }
    }

    /// 404 NotFound for an object.
    pub fn not_found(subject: Subject<'_>) -> Self {
        Self {
            details: Some(subject.details()),
            ..Self::plain(
                404,
                "NotFound",
                format!("{} \"{}\" not found", subject.qualified(), subject.name),
            )
        }
    }

    /// 404 for a path the server does not serve.
    pub fn no_route(path: &str) -> Self {
        Self::plain(
            404,
            "NotFound",
            format!("the server could not find the requested resource (path {path})"),
        )
    }

    /// 409 AlreadyExists.
    pub fn already_exists(subject: Subject<'_>) -> Self {
        Self {
            details: Some(subject.details()),
            ..Self::plain(
                409,
                "AlreadyExists",
                format!(
                    "{} \"{}\" already exists",
                    subject.qualified(),
                    subject.name
                ),
            )
        }
    }

    /// 409 Conflict for a stale resourceVersion.
    pub fn stale(subject: Subject<'_>) -> Self {
        Self {
            details: Some(subject.details()),
            ..Self::plain(
                409,
                "Conflict",
                format!(
                    "Operation cannot be fulfilled on {} \"{}\": the object has been modified; please apply your changes to the latest version and try again",
                    subject.qualified(),
                    subject.name
                ),
            )
        }
    }

    /// 409 Conflict with a custom explanation (preconditions, whose subject the API server
    /// names by kind: `ConfigMap "a"`, `WebApp.app.example.com "web"`).
    pub fn conflict(subject: Subject<'_>, why: impl std::fmt::Display) -> Self {
        Self {
            details: Some(subject.details()),
            ..Self::plain(
                409,
                "Conflict",
                format!(
                    "Operation cannot be fulfilled on {} \"{}\": {why}",
                    subject.qualified(),
                    subject.name
                ),
            )
        }
    }

    /// 409 Conflict of server-side apply, with one cause per conflicting field.
    pub fn apply_conflict(message: String, causes: Vec<(String, String)>) -> Self {
        let causes: Vec<Value> = causes
            .into_iter()
            .map(|(field, message)| json!({"reason": "FieldManagerConflict", "message": message, "field": field}))
            .collect();
        Self {
            details: Some(json!({"causes": causes})),
            ..Self::plain(409, "Conflict", message)
        }
    }

    /// 422 Invalid, `<Kind>.<group> "<name>" is invalid: ...`.
    pub fn invalid(group: &str, kind: &str, name: &str, errors: &[FieldError]) -> Self {
        let qualified = if group.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}.{group}")
        };
        // The message lists each distinct error once (apimachinery's ToAggregate); the causes
        // keep them all.
        let mut shown: Vec<String> = Vec::new();
        for error in errors {
            let text = error.to_string();
            if !shown.contains(&text) {
                shown.push(text);
            }
        }
        let list = match shown.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        let causes: Vec<Value> = errors
            .iter()
            .map(|e| json!({"reason": e.kind.reason(), "message": e.body(), "field": e.field}))
            .collect();
        // Empty name, group and kind are left out, as Go's omitempty leaves them out.
        let mut details = json!({"name": name, "group": group, "kind": kind, "causes": causes});
        if let Some(map) = details.as_object_mut() {
            map.retain(|_, v| v.as_str() != Some(""));
        }
        Self {
            details: Some(details),
            ..Self::plain(
                422,
                "Invalid",
                format!("{qualified} \"{name}\" is invalid: {list}"),
            )
        }
    }

    /// An internal signal between the handlers and the service, with `reason` naming it; never
    /// sent to a client.
    pub fn internal_marker(reason: &'static str) -> Self {
        Self::plain(0, reason, "")
    }

    /// 500 for an object its conversion webhook could not convert, named by the object's own
    /// group, version and kind, wrapped twice as kube-apiserver wraps it on a write.
    pub fn conversion_failed(object: &Value, error: impl std::fmt::Display) -> Self {
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let kind = object["kind"].as_str().unwrap_or_default();
        let once = format!(
            "Internal error occurred: conversion webhook for {api_version}, Kind={kind} failed: \
             {error}"
        );
        Self {
            details: Some(json!({"causes": [{"message": once}]})),
            ..Self::internal(format!("Internal error occurred: {once}"))
        }
    }

    /// 400 BadRequest.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::plain(400, "BadRequest", message)
    }

    /// 405 MethodNotAllowed.
    pub fn method_not_allowed(message: impl Into<String>) -> Self {
        Self::plain(405, "MethodNotAllowed", message)
    }

    /// 403 Forbidden.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::plain(403, "Forbidden", message)
    }

    /// 410 Gone: a resourceVersion older than the retained history.
    pub fn gone(message: impl Into<String>) -> Self {
        Self::plain(410, "Expired", message)
    }

    /// 415 UnsupportedMediaType.
    pub fn unsupported_media_type(message: impl Into<String>) -> Self {
        Self::plain(415, "UnsupportedMediaType", message)
    }

    /// 500 InternalError: what the API server answers when it cannot build a view of an object.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::plain(500, "InternalError", message)
    }

    /// 500 without a reason: an error the API server did not classify (an apply configuration
    /// structured-merge-diff cannot type).
    pub fn unclassified(message: impl Into<String>) -> Self {
        Self::plain(500, "", message)
    }

    /// 504 for a read at a resourceVersion the server has not reached.
    pub fn too_large_resource_version(requested: u64, current: u64) -> Self {
        Self {
            details: Some(json!({
                "causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}],
                "retryAfterSeconds": 1,
            })),
            ..Self::plain(
                504,
                "Timeout",
                format!("Timeout: Too large resource version: {requested}, current: {current}"),
            )
        }
    }

    /// 422 with a plain message (patch application errors).
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::plain(422, "Invalid", message)
    }

    /// An injected failure: the reason Kubernetes uses for that status code.
    pub fn injected(code: u16) -> Self {
        let reason = match code {
            400 => "BadRequest",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "NotFound",
            409 => "Conflict",
            410 => "Expired",
            422 => "Invalid",
            429 => "TooManyRequests",
            503 => "ServiceUnavailable",
            504 => "Timeout",
            _ => "InternalError",
        };
        Self::plain(code, reason, format!("injected fault: {reason} ({code})"))
    }

    /// The `Status` object for the response body.
    pub fn to_status(&self) -> Value {
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        });
        if self.reason.is_empty() {
            status.as_object_mut().map(|s| s.remove("reason"));
        }
        if let Some(details) = &self.details {
            status["details"] = details.clone();
        }
        status
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.reason, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

/// Result of a request handler.
pub type ApiResult<T> = Result<T, ApiError>;
