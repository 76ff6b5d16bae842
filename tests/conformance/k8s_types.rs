//! A kind whose spec and status embed types of k8s.io/api and k8s.io/apimachinery (not a
//! controller-tools case): their schemas are controller-gen's (`tools/k8s-schemas`), with Go's
//! doc comments line for line, inlined under the fields' own docs and attributes.
//!
//! Go: `k8s_types/types.go`. Pod templates, volumes and affinities are checked type by type by
//! `tools/k8s-schemas` (`verify`) rather than here, for the size of their schemas.

use k8s_openapi::api::apps::v1::DeploymentStrategy;
use k8s_openapi::api::core::v1::{
    EnvVar, LocalObjectReference, ObjectReference, ResourceRequirements, SecretKeySelector,
    ServicePort, Taint, Toleration,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector};
use webop::prelude::*;

/// WorkerSpec runs pods on tainted nodes.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "batch.example.com", version = "v1", kind = "Worker")]
#[resource(doc = "Worker is the Schema for the workers API")]
#[subresource(status)]
#[serde(rename_all = "camelCase")]
pub struct WorkerSpec {
    pub selector: LabelSelector,

    /// tolerations of the worker pods.
    #[serde(default)]
    pub tolerations: Vec<Toleration>,

    /// taints the workers put on their nodes.
    #[validate(max_items = 8)]
    #[serde(default)]
    pub taints: Vec<Taint>,

    /// resources of each worker.
    pub resources: Option<ResourceRequirements>,

    /// env of the worker container.
    #[schema(list_type = "map", list_map_key = ["name"])]
    #[serde(default)]
    pub env: Vec<EnvVar>,

    pub service_account: Option<LocalObjectReference>,

    /// ports the workers listen on.
    #[schema(list_type = "map", list_map_key = ["port", "protocol"])]
    #[serde(default)]
    pub ports: Vec<ServicePort>,

    /// secretRef holds the workers' token.
    pub secret_ref: SecretKeySelector,

    /// strategy replaces workers.
    pub strategy: Option<DeploymentStrategy>,
}

/// WorkerStatus is what the workers report.
#[derive(Schema, Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerStatus {
    /// conditions of the workers.
    #[schema(list_type = "map", list_map_key = ["type"])]
    #[serde(default)]
    pub conditions: Vec<Condition>,

    /// active pods.
    #[serde(default)]
    pub active: Vec<ObjectReference>,
}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Worker::crd()]
}
