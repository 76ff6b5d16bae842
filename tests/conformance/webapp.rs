//! The seed tutorial's WebApp API, as `webop create api --image` scaffolds it.
//!
//! Go: `webapp/types.go`, and in `webapp/controller.go` the golden operator's `#[rbac]` rules as
//! `+kubebuilder:rbac` markers (for `testdata/webapp-operator/config/rbac/role.yaml`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use webop::prelude::*;

/// WebAppSpec defines the desired state of WebApp
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "WebApp")]
#[resource(doc = "WebApp is the Schema for the webapps API")]
#[subresource(status)]
#[printcolumn(name = "Image", type = "string", json_path = ".spec.image")]
#[printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas")]
#[printcolumn(
    name = "Available",
    type = "integer",
    json_path = ".status.availableReplicas"
)]
#[printcolumn(name = "Phase", type = "string", json_path = ".status.phase")]
#[printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp")]
// The children are named after the WebApp, and the Service's name `<name>-svc` must be a
// DNS-1035 label: the API server refuses a WebApp whose children could not be created.
#[root(x_validation(
    rule = "self.metadata.name.size() <= 59 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name must be at most 59 lowercase letters, digits and '-', starting with a letter: the Service is named <name>-svc"
))]
#[serde(rename_all = "camelCase")]
pub struct WebAppSpec {
    /// image is the container image that runs the application.
    #[validate(required)]
    pub image: String,

    /// replicas is the number of pods to run.
    #[validate(minimum = 1, maximum = 10)]
    #[schema(default = 1)]
    pub replicas: i32,

    /// port is the port the container listens on and the Service exposes.
    #[validate(minimum = 1, maximum = 65535)]
    #[schema(default = 8080)]
    pub port: i32,

    /// resources are the compute resources of the container. Without them it requests 10m of
    /// CPU and 64Mi of memory, so that the scheduler can place it.
    pub resources: Option<k8s_openapi::api::core::v1::ResourceRequirements>,
}

/// WebAppStatus defines the observed state of WebApp.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebAppStatus {
    /// availableReplicas is the number of pods of the Deployment that are ready.
    #[serde(default)]
    pub available_replicas: i32,

    /// phase summarises the WebApp: Pending until every replica is available, then Running;
    /// Failed when the Deployment cannot make progress.
    pub phase: Option<WebAppPhase>,

    /// lastUpdateTime is when the status last changed.
    pub last_update_time: Option<Time>,

    /// conditions represent the current state of the WebApp resource.
    /// Each condition has a unique type and reflects the status of a specific aspect of the resource.
    ///
    /// Standard condition types include:
    /// - "Available": the resource is fully functional
    /// - "Progressing": the resource is being created or updated
    /// - "Degraded": the resource failed to reach or maintain its desired state
    ///
    /// The status of each condition is one of True, False, or Unknown.
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

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![WebApp::crd()]
}
