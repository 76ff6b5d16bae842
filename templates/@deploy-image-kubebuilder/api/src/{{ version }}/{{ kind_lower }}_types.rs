use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use webop::prelude::*;

// EDIT THIS FILE! THIS IS SCAFFOLDING FOR YOU TO OWN!
// Run `make manifests` after changing it to regenerate the CRD.

/// {{ kind }}Spec defines the desired state of {{ kind }}
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "{{ group_domain }}", version = "{{ version }}", kind = "{{ kind }}")]
{%- if plural_override %}
#[resource(plural = "{{ plural_override }}")]
{%- endif %}
#[resource(doc = "{{ kind }} is the Schema for the {{ plural }} API", spec_required)]
#[subresource(status)]
#[serde(rename_all = "camelCase")]
pub struct {{ kind }}Spec {
    // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
    // Important: Run "make manifests" to regenerate the CRD after modifying this file.
    //
    /// size defines the number of {{ kind }} instances
    #[validate(minimum = 0)]
    #[schema(default = 1)]
    pub size: i32,
{%- if container_port %}

    /// containerPort defines the port that will be used to init the container with the image
    pub container_port: i32,
{%- endif %}
}

/// {{ kind }}Status defines the observed state of {{ kind }}.
#[derive(Schema, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct {{ kind }}Status {
    /// conditions represent the current state of the {{ kind }} resource.
    /// Each condition has a unique type and reflects the status of a specific aspect of the resource.
    ///
    /// Standard condition types include:
    /// - "Available": the resource is fully functional
    /// - "Progressing": the resource is being created or updated
    /// - "Degraded": the resource failed to reach or maintain its desired state
    ///
    /// The status of each condition is one of True, False, or Unknown.
    #[schema(list_type = "map", list_map_key = ["type"])]
    pub conditions: Option<Vec<metav1::Condition>>,
}
