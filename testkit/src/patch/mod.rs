//! The patch formats of `PATCH` requests: JSON patch (RFC 6902), JSON merge patch (RFC 7386),
//! strategic merge patch (built-in kinds only) and server-side apply.

pub mod apply;
pub mod fieldset;
pub mod managed;
pub mod strategic;

use serde_json::Value;

use super::status::{ApiError, ApiResult};

/// A patch body by its content type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    /// `application/json-patch+json`.
    Json,
    /// `application/merge-patch+json`.
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
    /// `application/apply-patch+yaml` (server-side apply).
    Apply,
}

impl PatchKind {
    /// The kind of a `Content-Type`, or 415.
    pub fn from_content_type(content_type: &str) -> ApiResult<Self> {
        let media = content_type.split(';').next().unwrap_or_default().trim();
        Ok(match media {
            "application/json-patch+json" => Self::Json,
            "application/merge-patch+json" => Self::Merge,
            "application/strategic-merge-patch+json" => Self::Strategic,
            "application/apply-patch+yaml" | "application/apply-patch+json" => Self::Apply,
            other => {
                return Err(ApiError::unsupported_media_type(format!(
                    "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {other:?})"
                )));
            }
        })
    }
}

/// Applies a JSON patch. Like the API server's JSON patch library, a `test` for `null` passes
/// on a missing path (kube-runtime's `finalizer()` relies on this).
pub fn json_patch(document: &Value, patch: &Value) -> ApiResult<Value> {
    let operations: json_patch::Patch = serde_json::from_value(patch.clone())
        .map_err(|e| ApiError::bad_request(format!("invalid JSON patch: {e}")))?;
    let mut out = document.clone();
    for operation in &operations.0 {
        if let json_patch::PatchOperation::Test(test) = operation
            && test.value.is_null()
            && out.pointer(test.path.as_str()).is_none()
        {
            continue;
        }
        json_patch::patch(&mut out, std::slice::from_ref(operation))
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    }
    Ok(out)
}

/// Applies a JSON merge patch.
pub fn merge_patch(document: &Value, patch: &Value) -> Value {
    let mut out = document.clone();
    json_patch::merge(&mut out, patch);
    out
}
