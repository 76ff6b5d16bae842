use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use webop::prelude::*;

// EDIT THIS FILE! THIS IS SCAFFOLDING FOR YOU TO OWN!
// Run `make manifests` after changing it to regenerate the CRD.

/// CronJobSpec defines the desired state of CronJob
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "batch.tutorial.kubebuilder.io",
    version = "v1",
    kind = "CronJob"
)]
#[storage_version]
#[resource(doc = "CronJob is the Schema for the cronjobs API")]
#[subresource(status)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
    // Important: Run "make manifests" to regenerate the CRD after modifying this file.
    // The attributes (`#[validate(...)]`, `#[schema(...)]`) become its OpenAPI v3 schema.
    // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html
    //
    /// foo is an example field of CronJob. Edit cronjob_types.rs to remove/update
    pub foo: Option<String>,
}

/// CronJobStatus defines the observed state of CronJob.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
    // Important: Run "make manifests" to regenerate the CRD after modifying this file.
    //
    /// conditions represent the current state of the CronJob resource.
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
    pub conditions: Vec<metav1::Condition>,
}
