//! The seed tutorial's WebApp API, as `webop create api --image` scaffolds it.
//!
//! Go equivalent (controller-gen v0.21 input), field docs as below:
//! ```go
//! type WebAppSpec struct {
//!     // +kubebuilder:validation:Required
//!     Image string `json:"image"`
//!     // +kubebuilder:validation:Minimum=1
//!     // +kubebuilder:validation:Maximum=10
//!     // +kubebuilder:default=1
//!     Replicas int32 `json:"replicas,omitempty"`
//!     // +kubebuilder:validation:Minimum=1
//!     // +kubebuilder:validation:Maximum=65535
//!     // +kubebuilder:default=80
//!     Port int32 `json:"port,omitempty"`
//! }
//! // +kubebuilder:validation:Enum=Pending;Running;Failed
//! type WebAppPhase string
//! type WebAppStatus struct {
//!     AvailableReplicas int32 `json:"availableReplicas,omitempty"`
//!     Phase WebAppPhase `json:"phase,omitempty"`
//!     LastUpdateTime *metav1.Time `json:"lastUpdateTime,omitempty"`
//!     // +listType=map
//!     // +listMapKey=type
//!     // +optional
//!     Conditions []metav1.Condition `json:"conditions,omitempty"`
//! }
//! // +kubebuilder:object:root=true
//! // +kubebuilder:subresource:status
//! // +kubebuilder:printcolumn:name="Image",type=string,JSONPath=`.spec.image`
//! // +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
//! // +kubebuilder:printcolumn:name="Available",type=integer,JSONPath=`.status.availableReplicas`
//! // +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
//! // +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
//! type WebApp struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec   WebAppSpec   `json:"spec,omitempty"`
//!     Status WebAppStatus `json:"status,omitempty"`
//! }
//! ```

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
    #[schema(default = 80)]
    pub port: i32,
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
