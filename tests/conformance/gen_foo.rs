//! controller-tools' `pkg/crd/testdata/gen/foo_types.go`: a kind without any
//! marker (group from the package, version from the package name), a defaulted field with an
//! example, an empty status struct, and descriptions of `spec` and `status` taken from the
//! root's field comments.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `gen_foo/types.go`.
//!
//! The root's comments on `Spec` and `Status` are the doc comments of the spec and status
//! structs. Go's field without `omitempty` is required even with a default; a Rust field with
//! `#[schema(default)]` is optional unless `#[validate(required)]` says otherwise.

use webop::prelude::*;

/// Spec comments SHOULD appear in the CRD spec
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "bar.example.com", version = "foo", kind = "Foo")]
#[resource(status = "FooStatus")]
#[serde(rename_all = "camelCase")]
pub struct FooSpec {
    /// This tests that defaulted fields are stripped for v1beta1,
    /// but not for v1
    #[schema(default = "fooDefaultString", example = "fooExampleString")]
    #[validate(required)]
    pub defaulted_string: String,
}

/// Status comments SHOULD appear in the CRD spec
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FooStatus {}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Foo::crd()]
}
