//! controller-tools' `pkg/crd/testdata/multiple_versions`: one kind in two versions, the second
//! the storage version, sharing a type whose field is `+structType=atomic`; both versions have
//! the status subresource but no status field.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/multiple_versions/testdata.kubebuilder.io_versionedresources.yaml` (but for
//! the version annotation).
//!
//! Go (`common.go`, then `v1beta1/types.go`; `v1beta2/types.go` is the same plus
//! `+kubebuilder:storageversion`):
//! ```go
//! package multiple_versions
//!
//! type InnerStruct struct {
//!     Foo string `json:"foo,omitempty"`
//! }
//! type OuterStruct struct {
//!     // +structType=atomic
//!     Struct InnerStruct `json:"struct,omitempty"`
//! }
//!
//! // +groupName=testdata.kubebuilder.io
//! package v1beta1
//!
//! type VersionedResourceSpec struct {
//!     Struct multiver.OuterStruct `json:"struct,omitempty"`
//! }
//! // +kubebuilder:object:root=true
//! // +kubebuilder:subresource:status
//! // +kubebuilder:resource:singular=versionedresource
//!
//! type VersionedResource struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec VersionedResourceSpec `json:"spec"`
//! }
//! ```
//!
//! A Go struct field without `omitempty` (`Struct` with it) is a Rust field with a serde
//! default here; a status subresource without a status field is `#[subresource(status = "()")]`.

use webop::prelude::*;

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InnerStruct {
    pub foo: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OuterStruct {
    #[schema(struct_type = "atomic")]
    #[serde(default)]
    pub r#struct: InnerStruct,
}

#[path = "multiple_versions/v1beta1.rs"]
pub mod v1beta1;
#[path = "multiple_versions/v1beta2.rs"]
pub mod v1beta2;

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    webop::crd::assemble([
        v1beta1::VersionedResource::crd_version(),
        v1beta2::VersionedResource::crd_version(),
    ])
    .unwrap()
}
