//! The WebApp API of the seed tutorial through webop's derives: the CRD it yields and the serde
//! behaviour of its types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use serde_json::json;
use webop::prelude::*;

/// WebAppSpec defines the desired state of WebApp
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "WebApp")]
#[resource(doc = "WebApp is the Schema for the webapps API")]
#[subresource(status)]
#[printcolumn(name = "Image", type = "string", json_path = ".spec.image")]
#[printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp")]
#[serde(rename_all = "camelCase")]
pub struct WebAppSpec {
    /// image is the container image that runs the application.
    #[validate(required)]
    pub image: String,

    /// replicas is the number of pods to run.
    #[validate(minimum = 1, maximum = 10)]
    #[schema(default = 1)]
    pub replicas: i32,
}

/// WebAppStatus defines the observed state of WebApp.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebAppStatus {
    /// availableReplicas is the number of ready pods.
    #[serde(default)]
    pub available_replicas: i32,
    /// phase summarises the WebApp.
    pub phase: Option<WebAppPhase>,
    /// lastUpdateTime is when the status last changed.
    pub last_update_time: Option<Time>,
    /// conditions of the WebApp.
    #[schema(list_type = "map", list_map_key = ["type"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// WebAppPhase is the lifecycle phase of a WebApp.
#[derive(Schema, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WebAppPhase {
    Pending,
    Running,
    Failed,
}

#[test]
fn the_crd_has_the_tutorials_shape() {
    let crd = serde_json::to_value(WebApp::crd()).unwrap();
    assert_eq!(crd["metadata"]["name"], "webapps.app.example.com");
    let version = &crd["spec"]["versions"][0];
    assert_eq!(version["subresources"], json!({"status": {}}));
    assert_eq!(
        version["additionalPrinterColumns"][1],
        json!({"jsonPath": ".metadata.creationTimestamp", "name": "Age", "type": "date"})
    );
    let root = &version["schema"]["openAPIV3Schema"];
    assert_eq!(
        root["description"],
        "WebApp is the Schema for the webapps API"
    );
    assert_eq!(root.get("required"), None);
    let spec = &root["properties"]["spec"];
    assert_eq!(spec["required"], json!(["image"]));
    assert_eq!(
        spec["properties"]["replicas"],
        json!({"default": 1, "description": "replicas is the number of pods to run.", "format": "int32", "maximum": 10.0, "minimum": 1.0, "type": "integer"})
    );
    let status = &root["properties"]["status"];
    assert_eq!(
        status["description"],
        "WebAppStatus defines the observed state of WebApp."
    );
    assert_eq!(status.get("required"), None);
    assert_eq!(
        status["properties"]["phase"],
        json!({"description": "phase summarises the WebApp.", "enum": ["Pending", "Running", "Failed"], "type": "string"})
    );
    assert_eq!(
        status["properties"]["lastUpdateTime"]["format"],
        "date-time"
    );
    assert_eq!(
        status["properties"]["conditions"]["x-kubernetes-list-map-keys"],
        json!(["type"])
    );
}

#[test]
fn serde_fills_schema_defaults_and_omits_none() {
    let spec: WebAppSpec = serde_json::from_value(json!({"image": "nginx"})).unwrap();
    assert_eq!(spec.replicas, 1);
    let status = WebAppStatus {
        available_replicas: 2,
        ..WebAppStatus::default()
    };
    assert_eq!(
        serde_json::to_value(&status).unwrap(),
        json!({"availableReplicas": 2})
    );
}

#[test]
fn the_root_object_round_trips_with_api_version_and_kind() {
    let app = WebApp::new(
        "demo",
        WebAppSpec {
            image: "nginx:1.25".into(),
            replicas: 2,
        },
    );
    let value = serde_json::to_value(&app).unwrap();
    assert_eq!(value["apiVersion"], "app.example.com/v1");
    assert_eq!(value["kind"], "WebApp");
    assert_eq!(value.get("status"), None);
    let back: WebApp = serde_json::from_value(value).unwrap();
    assert_eq!(back.spec, app.spec);
    use kube_core::Resource;
    assert_eq!(WebApp::plural(&()), "webapps");
    assert_eq!(
        WebApp::url_path(&(), Some("ns")),
        "/apis/app.example.com/v1/namespaces/ns/webapps"
    );
}
