//! Shared fixtures of the testkit tests: the WebApp CRD, built as k8s-openapi types from JSON
//! (what `WebApp::crd()` returns), small helpers, and (`backends`) the `scenario!` macro that
//! runs one test body on the testkit and on a real kube-apiserver.
#![allow(dead_code)]

#[macro_use]
mod backends;

#[allow(unused_imports)] // not every test binary runs scenarios
pub use backends::*;

use std::future::Future;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use serde_json::json;

/// The WebApp CRD of the tutorial: group app.example.com, version v1, namespaced, with a
/// status subresource.
pub fn webapp_crd() -> CustomResourceDefinition {
    let spec = json!({
        "type": "object",
        "required": ["image"],
        "properties": {
            "image": {"type": "string"},
            "replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10, "default": 1},
            "port": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 65535, "default": 80}
        }
    });
    let condition = json!({
        "type": "object",
        "required": ["type", "status"],
        "properties": {
            "type": {"type": "string"},
            "status": {"type": "string"},
            "reason": {"type": "string"},
            "message": {"type": "string"}
        }
    });
    let status = json!({
        "type": "object",
        "properties": {
            "availableReplicas": {"type": "integer", "format": "int32"},
            "phase": {"type": "string", "enum": ["Pending", "Running", "Failed"]},
            "lastUpdateTime": {"type": "string", "format": "date-time"},
            "conditions": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["type"],
                "items": condition
            }
        }
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": spec,
            "status": status
        }
    });
    let names = json!({"kind": "WebApp", "listKind": "WebAppList", "plural": "webapps", "singular": "webapp", "shortNames": ["wa"]});
    let version = json!({"name": "v1", "served": true, "storage": true, "subresources": {"status": {}}, "schema": {"openAPIV3Schema": schema}});
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "webapps.app.example.com"},
        "spec": {"group": "app.example.com", "names": names, "scope": "Namespaced", "versions": [version]}
    }))
    .expect("the WebApp CRD is a valid CustomResourceDefinition")
}

/// The API resource of WebApp v1.
pub fn webapp_resource() -> ApiResource {
    ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("app.example.com", "v1", "WebApp"),
        "webapps",
    )
}

/// WebApps in a namespace, as dynamic objects.
pub fn webapps(client: kube::Client, namespace: &str) -> Api<DynamicObject> {
    Api::namespaced_with(client, namespace, &webapp_resource())
}

/// A WebApp object with a spec.
pub fn webapp(name: &str, spec: serde_json::Value) -> DynamicObject {
    let mut object = DynamicObject::new(name, &webapp_resource());
    object.data = json!({"spec": spec});
    object
}

/// Awaits a future that must finish within a generous bound (a hang fails instead of blocking).
pub async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), future)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

/// The `kube::Error::Api` status of a failed call.
pub fn status_of<T: std::fmt::Debug>(result: Result<T, kube::Error>) -> kube::core::Status {
    match result {
        Err(kube::Error::Api(status)) => *status,
        other => panic!("expected an API error, got {other:?}"),
    }
}

/// The causes of an `Invalid` status as `field: message` lines, sorted: kube-apiserver reports
/// the errors of sibling properties in Go's random map order, so only their set is stable.
pub fn causes(status: &kube::core::Status) -> Vec<String> {
    let mut lines: Vec<String> = status
        .details
        .iter()
        .flat_map(|details| &details.causes)
        .map(|cause| format!("{}: {}", cause.field, cause.message))
        .collect();
    lines.sort();
    lines
}
