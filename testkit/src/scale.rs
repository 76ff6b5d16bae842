//! The `scale` subresource of custom resources: an `autoscaling/v1` Scale that views and sets
//! the replicas at the CRD's `specReplicasPath`, as `kubectl scale` and autoscalers use it.

use serde_json::{Value, json};

use super::objects::{at_json_path, meta_str};
use super::status::{FieldError, FieldErrorKind};

/// A CRD version's `subresources.scale`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalePaths {
    /// `.spec.replicas`: where the desired replicas live (required).
    pub spec_replicas: String,
    /// `.status.replicas`: the observed replicas (0 when absent).
    pub status_replicas: String,
    /// `.status.selector`: the label selector, as a string, if the CRD names one.
    pub label_selector: Option<String>,
}

impl ScalePaths {
    /// The scale subresource of a CRD version object, if it has one.
    pub fn of_version(version: &Value) -> Option<Self> {
        let scale = version.pointer("/subresources/scale")?;
        let path = |key: &str| scale.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(ScalePaths {
            spec_replicas: path("specReplicasPath")?,
            status_replicas: path("statusReplicasPath")?,
            label_selector: path("labelSelectorPath"),
        })
    }
}

/// The Scale view of `object`, or why there is none: the API server refuses a Scale of an
/// object without a value at `specReplicasPath`.
pub fn view(object: &Value, paths: &ScalePaths) -> Result<Value, String> {
    let spec_replicas = at_json_path(object, &paths.spec_replicas)
        .and_then(Value::as_i64)
        .ok_or_else(|| {
            format!(
                "the spec replicas field {:?} does not exist",
                paths.spec_replicas
            )
        })?;
    let status_replicas = at_json_path(object, &paths.status_replicas)
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut metadata = json!({});
    for field in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(value) = meta_str(object, field) {
            metadata[field] = json!(value);
        }
    }
    let mut status = json!({"replicas": status_replicas});
    if let Some(selector) = paths
        .label_selector
        .as_deref()
        .and_then(|path| at_json_path(object, path))
        .and_then(Value::as_str)
    {
        status["selector"] = json!(selector);
    }
    Ok(json!({
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": metadata,
        "spec": {"replicas": spec_replicas},
        "status": status,
    }))
}

/// What the apiextensions server checks of a custom resource with a scale subresource on every
/// write: the replicas at `specReplicasPath` (unless `status_only`) and `statusReplicasPath` are
/// non-negative int32s, the selector at `labelSelectorPath` a string. The field is the path as
/// the CRD spells it (`.spec.replicas`).
pub fn validate(object: &Value, paths: &ScalePaths, status_only: bool) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut replicas = |path: &str| match at_json_path(object, path) {
        None => {}
        Some(value) => match value.as_i64() {
            None => errors.push(FieldError::new(
                path,
                FieldErrorKind::Invalid,
                Some("0".into()),
                format!(
                    "{path} accessor error: {} is of the type {}, expected int64",
                    go_display(value),
                    go_type(value)
                ),
            )),
            Some(n) if n < 0 => errors.push(FieldError::new(
                path,
                FieldErrorKind::Invalid,
                Some(n.to_string()),
                "should be a non-negative integer",
            )),
            Some(n) if n > i64::from(i32::MAX) => errors.push(FieldError::new(
                path,
                FieldErrorKind::Invalid,
                Some(n.to_string()),
                format!("should be less than or equal to {}", i32::MAX),
            )),
            Some(_) => {}
        },
    };
    if !status_only {
        replicas(&paths.spec_replicas);
    }
    replicas(&paths.status_replicas);
    if let Some(path) = &paths.label_selector
        && let Some(value) = at_json_path(object, path).filter(|v| !v.is_string())
    {
        errors.push(FieldError::new(
            path.as_str(),
            FieldErrorKind::Invalid,
            Some("\"\"".into()),
            format!(
                "{path} accessor error: {} is of the type {}, expected string",
                go_display(value),
                go_type(value)
            ),
        ));
    }
    errors
}

/// The Go type a JSON value decodes to (`%T`).
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::Bool(_) => "bool",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
        Value::Null => "<nil>",
    }
}

/// A scalar as Go's `%v` prints it.
fn go_display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}

/// `object` with the replicas of `scale` at `specReplicasPath` (intermediate objects created).
pub fn with_replicas(mut object: Value, paths: &ScalePaths, replicas: i64) -> Value {
    let segments: Vec<&str> = paths
        .spec_replicas
        .split('.')
        .filter(|s| !s.is_empty())
        .collect();
    let Some((last, parents)) = segments.split_last() else {
        return object;
    };
    let mut target = &mut object;
    for segment in parents {
        if !target.get(*segment).is_some_and(Value::is_object) {
            target[*segment] = json!({});
        }
        target = &mut target[*segment];
    }
    target[*last] = json!(replicas);
    object
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> ScalePaths {
        ScalePaths {
            spec_replicas: ".spec.replicas".into(),
            status_replicas: ".status.replicas".into(),
            label_selector: Some(".status.selector".into()),
        }
    }

    #[test]
    fn views_and_sets_the_replicas_at_the_crd_paths() {
        let object = json!({
            "metadata": {"name": "a", "namespace": "default", "resourceVersion": "7"},
            "spec": {"replicas": 2}, "status": {"selector": "app=a"},
        });
        let scale = view(&object, &paths()).unwrap();
        assert_eq!(scale["spec"], json!({"replicas": 2}));
        assert_eq!(scale["status"], json!({"replicas": 0, "selector": "app=a"}));
        assert_eq!(scale["metadata"]["resourceVersion"], "7");
        let scaled = with_replicas(object, &paths(), 5);
        assert_eq!(scaled["spec"]["replicas"], 5);

        let error = view(&json!({"spec": {}}), &paths()).unwrap_err();
        assert!(error.contains(".spec.replicas"), "{error}");
        let created = with_replicas(json!({}), &paths(), 1);
        assert_eq!(created, json!({"spec": {"replicas": 1}}));
    }
}
