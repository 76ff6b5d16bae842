//! controller-tools' `pkg/crd/testdata/enum`: a `+k8s:enum` string type used by a field.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/testdata.kubebuilder.io_enums.yaml` (a hand-written golden without the
//! `---` line, the version annotation and with an empty `status`, which `webop manifests`, like
//! controller-gen, does not write).
//!
//! Go:
//! ```go
//! // +k8s:enum
//! type EnumType string
//! const (
//!     Value1 EnumType = "Value1"
//!     Value2 EnumType = "Value2"
//! )
//! // +kubebuilder:object:root=true
//! // Enum is a test CRD that contains an enum.
//! type Enum struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec EnumSpec `json:"spec,omitempty"`
//! }
//! // EnumSpec defines the desired state of Enum
//! type EnumSpec struct {
//!     Field EnumType `json:"field,omitempty"`
//! }
//! ```
//!
//! Rust enums keep their declaration order; controller-gen sorts the constants of a
//! `+k8s:enum` type, so the variants are declared sorted.

use webop::prelude::*;

/// EnumSpec defines the desired state of Enum
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "testdata.kubebuilder.io", version = "v1", kind = "Enum")]
#[resource(doc = "Enum is a test CRD that contains an enum.")]
pub struct EnumSpec {
    pub field: Option<EnumType>,
}

#[derive(Schema, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnumType {
    Value1,
    Value2,
}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Enum::crd()]
}
