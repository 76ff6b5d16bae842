//! controller-tools' `pkg/crd/testdata/plural`: the names of `TestQuota` (plural `testquotas`),
//! and a root type with a field of its own and no `spec`: `#[resource(flatten_spec)]`.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `plural/types.go`.

use webop::prelude::*;

#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[resource(group = "plural.example.com", version = "v1", kind = "TestQuota")]
#[resource(flatten_spec)]
pub struct TestQuotaSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![TestQuota::crd()]
}
