//! controller-tools' `pkg/crd/testdata/enum`: a `+k8s:enum` string type used by a field.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `enums/types.go`.
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
