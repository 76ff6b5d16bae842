//! controller-tools' `pkg/crd/testdata/gen/zoo/zoo_types.go`: a kind without any
//! marker (group from the package, version from the package name), a defaulted field with an
//! example, an empty status struct, and descriptions of `spec` and `status` taken from the
//! root's field comments.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/gen/zoo/bar.example.com_zoos.yaml` (but for the version annotation).
//! Left out: the golden `bar.example.com_zoos.v1beta1.yaml` (apiextensions v1beta1, which
//! controller-gen no longer writes either).
//!
//! Go:
//! ```go
//! // +groupName=bar.example.com
//! package zoo
//!
//! type ZooSpec struct {
//!     // This tests that defaulted fields are stripped for v1beta1,
//!     // but not for v1
//!     // +kubebuilder:default=zooDefaultString
//!     // +kubebuilder:example=zooExampleString
//!     DefaultedString string `json:"defaultedString"`
//! }
//! type ZooStatus struct{}
//!
//! type Zoo struct {
//!     // TypeMeta comments should NOT appear in the CRD spec
//!     metav1.TypeMeta `json:",inline"`
//!     // ObjectMeta comments should NOT appear in the CRD spec
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     // Spec comments SHOULD appear in the CRD spec
//!     Spec ZooSpec `json:"spec,omitempty"`
//!     // Status comments SHOULD appear in the CRD spec
//!     Status ZooStatus `json:"status,omitempty"`
//! }
//! ```
//!
//! The root's comments on `Spec` and `Status` are the doc comments of the spec and status
//! structs. Go's field without `omitempty` is required even with a default; a Rust field with
//! `#[schema(default)]` is optional unless `#[validate(required)]` says otherwise.

use webop::prelude::*;

/// Spec comments SHOULD appear in the CRD spec
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "bar.example.com", version = "zoo", kind = "Zoo")]
#[resource(status = "ZooStatus")]
#[serde(rename_all = "camelCase")]
pub struct ZooSpec {
    /// This tests that defaulted fields are stripped for v1beta1,
    /// but not for v1
    #[schema(default = "zooDefaultString", example = "zooExampleString")]
    #[validate(required)]
    pub defaulted_string: String,
}

/// Status comments SHOULD appear in the CRD spec
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ZooStatus {}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Zoo::crd()]
}
