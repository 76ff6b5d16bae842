//! Kinds without a spec (a unit struct) or without a status field but with the status
//! subresource (`#[subresource(status = "()")]`): Go roots with no `Spec` or no `Status` field.

use serde_json::json;
use webop::prelude::*;

/// A kind with nothing but metadata.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Marker")]
#[subresource(status = "()")]
pub struct MarkerSpec;

#[test]
fn the_schema_has_neither_spec_nor_status_but_the_subresource_is_there() {
    let crd = serde_json::to_value(Marker::crd()).unwrap();
    let version = &crd["spec"]["versions"][0];
    let properties = version["schema"]["openAPIV3Schema"]["properties"]
        .as_object()
        .unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(names, ["apiVersion", "kind", "metadata"]);
    assert_eq!(version["subresources"], json!({"status": {}}));
}

#[test]
fn the_object_has_no_spec_on_the_wire() {
    let marker = Marker::new("m", MarkerSpec);
    let value = serde_json::to_value(&marker).unwrap();
    assert_eq!(
        value,
        json!({"apiVersion": "app.example.com/v1", "kind": "Marker", "metadata": {"name": "m"}})
    );
    let back: Marker = serde_json::from_value(value).unwrap();
    assert_eq!(back.metadata.name.as_deref(), Some("m"));
    assert_eq!(back.spec, MarkerSpec);
}
