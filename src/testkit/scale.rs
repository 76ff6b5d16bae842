//! The `scale` subresource of custom resources: an `autoscaling/v1` Scale that views and sets
//! the replicas at the CRD's `specReplicasPath`, as `kubectl scale` and autoscalers use it.

use serde_json::{Value, json};

use super::objects::{at_json_path, meta_str};

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
