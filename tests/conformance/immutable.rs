//! controller-tools' `pkg/crd/testdata/immutable`: `+k8s:immutable` on required and optional
//! fields of every shape, and the guards controller-gen adds to the parent for optional ones.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/testdata.kubebuilder.io_immutabletypes.yaml` (but for the version
//! annotation).
//!
//! Go:
//! ```go
//! // +kubebuilder:object:root=true
//! type ImmutableType struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec ImmutableSpec `json:"spec"`
//! }
//! type ImmutableSpec struct {
//!     // +k8s:immutable
//!     RequiredString string `json:"requiredString"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalString *string `json:"optionalString,omitempty"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalLiteralString string `json:"optionalLiteralString,omitempty"`
//!     // +k8s:immutable
//!     RequiredStruct NestedStruct `json:"requiredStruct"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalStruct *NestedStruct `json:"optionalStruct,omitempty"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalOmitZeroStruct NestedStruct `json:"optionalOmitZeroStruct,omitzero"`
//!     // +k8s:immutable
//!     RequiredSlice []string `json:"requiredSlice"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalSlice []string `json:"optionalSlice,omitempty"`
//!     // +k8s:immutable
//!     RequiredMap map[string]string `json:"requiredMap"`
//!     // +k8s:immutable
//!     // +optional
//!     OptionalMap map[string]string `json:"optionalMap,omitempty"`
//!     MutableString string `json:"mutableString"`
//! }
//! type NestedStruct struct {
//!     Key   string `json:"key"`
//!     Value string `json:"value"`
//! }
//! ```
//!
//! Go's `+optional` on a value field is `#[validate(optional)]` on a field with a serde
//! default; a pointer is an `Option`.

use std::collections::BTreeMap;

use webop::prelude::*;

#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1",
    kind = "ImmutableType"
)]
#[resource(spec_required)]
#[serde(rename_all = "camelCase")]
pub struct ImmutableSpec {
    #[schema(immutable)]
    pub required_string: String,

    #[schema(immutable)]
    pub optional_string: Option<String>,

    #[schema(immutable)]
    #[validate(optional)]
    #[serde(default)]
    pub optional_literal_string: String,

    #[schema(immutable)]
    pub required_struct: NestedStruct,

    #[schema(immutable)]
    pub optional_struct: Option<NestedStruct>,

    #[schema(immutable)]
    #[validate(optional)]
    #[serde(default)]
    pub optional_omit_zero_struct: NestedStruct,

    #[schema(immutable)]
    pub required_slice: Vec<String>,

    #[schema(immutable)]
    #[validate(optional)]
    #[serde(default)]
    pub optional_slice: Vec<String>,

    #[schema(immutable)]
    pub required_map: BTreeMap<String, String>,

    #[schema(immutable)]
    #[validate(optional)]
    #[serde(default)]
    pub optional_map: BTreeMap<String, String>,

    pub mutable_string: String,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NestedStruct {
    pub key: String,
    pub value: String,
}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![ImmutableType::crd()]
}
