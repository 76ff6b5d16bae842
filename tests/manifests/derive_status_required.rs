//! `#[resource(status_required)]`: a kind whose status is required (Go: a `Status` field
//! without `omitempty`, as controller-gen reads it; `omitzero` is no `omitempty` to it). The
//! root lists `status` after `spec`, and after a flattened spec's required fields.

use serde_json::json;
use webop::prelude::*;

/// Dock is a place to moor.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "app.example.com",
    version = "v1",
    kind = "Dock",
    spec_required,
    status_required
)]
#[resource(status = "DockStatus")]
pub struct DockSpec {
    pub length: i32,
}

/// DockStatus reports a dock.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DockStatus {
    pub free: Option<bool>,
}

/// Pier has fields at its root.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "app.example.com",
    version = "v1",
    kind = "Pier",
    flatten_spec,
    status_required
)]
#[subresource(status)]
pub struct PierSpec {
    pub width: i32,
    pub name: Option<String>,
}

/// PierStatus reports a pier.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PierStatus {
    pub busy: Option<bool>,
}

fn root(crd: webop::crd::CustomResourceDefinition) -> serde_json::Value {
    let crd = serde_json::to_value(crd).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

#[test]
fn status_is_required_after_spec() {
    assert_eq!(root(Dock::crd())["required"], json!(["spec", "status"]));
}

#[test]
fn status_is_required_after_a_flattened_spec_s_fields() {
    let root = root(Pier::crd());
    assert_eq!(root["required"], json!(["width", "status"]));
    assert_eq!(root["properties"]["status"]["type"], "object");
}
