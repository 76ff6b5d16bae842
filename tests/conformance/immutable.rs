//! controller-tools' `pkg/crd/testdata/immutable`: `+k8s:immutable` on required and optional
//! fields of every shape, and the guards controller-gen adds to the parent for optional ones.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `immutable/types.go`.
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
