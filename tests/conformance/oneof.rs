//! controller-tools' `pkg/crd/testdata/oneof`: `AtMostOneOf`, `ExactlyOneOf` and `AtLeastOneOf`
//! (repeated and mixed, with a type's own CEL rule), and a CEL rule on a named type used twice.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `oneof/types.go`.
//!
//! The `+kubebuilder:subresource:status` marker sits on `OneofSpec`, not on the root, so the
//! CRD has no subresource. Go's named pointer type `CustomTypeAlias` is a newtype over `i32`,
//! used through an `Option` as the pointer is.

use webop::prelude::*;

/// OneofSpec is the spec for the oneofs API.
#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[resource(group = "testdata.kubebuilder.io", version = "v1beta1", kind = "Oneof")]
#[resource(doc = "Oneof is the Schema for the Oneof API", singular = "oneof")]
#[resource(spec_required)]
#[serde(rename_all = "camelCase")]
pub struct OneofSpec {
    pub first_type_with_oneof: Option<TypeWithOneofs>,
    pub second_type_with_oneof: Option<TypeWithMultipleOneofs>,

    pub first_type_with_exact_oneof: Option<TypeWithExactOneofs>,
    pub second_type_with_exact_oneof: Option<TypeWithMultipleExactOneofs>,

    #[serde(rename = "typeWithMultipleAtLeastOneOf")]
    pub type_with_multiple_at_least_oneofs: Option<TypeWithMultipleAtLeastOneofs>,

    #[serde(rename = "typeWithAllOneOf")]
    pub type_with_all_oneof: Option<TypeWithAllOneofs>,

    pub first_custom_type_alias: Option<CustomTypeAlias>,

    /// This verifies if the custom type alias XValidation is not duplicated.
    pub second_custom_type_alias: Option<CustomTypeAlias>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[x_validation(
    message = "only one of foo|bar may be set",
    rule = "!(has(self.foo) && has(self.bar))"
)]
#[validate(at_most_one_of = ["foo", "bar"])]
pub struct TypeWithOneofs {
    pub foo: Option<String>,
    pub bar: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(at_most_one_of = ["a", "b"])]
#[validate(at_most_one_of = ["c", "d"])]
pub struct TypeWithMultipleOneofs {
    pub a: Option<String>,
    pub b: Option<String>,
    pub c: Option<String>,
    pub d: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(exactly_one_of = ["foo", "bar"])]
pub struct TypeWithExactOneofs {
    pub foo: Option<String>,
    pub bar: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(exactly_one_of = ["a", "b"])]
#[validate(exactly_one_of = ["c", "d"])]
pub struct TypeWithMultipleExactOneofs {
    pub a: Option<String>,
    pub b: Option<String>,
    pub c: Option<String>,
    pub d: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(at_least_one_of = ["a", "b"])]
#[validate(at_least_one_of = ["c", "d"])]
pub struct TypeWithMultipleAtLeastOneofs {
    pub a: Option<String>,
    pub b: Option<String>,
    pub c: Option<String>,
    pub d: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(at_most_one_of = ["a", "b"])]
#[validate(exactly_one_of = ["c", "d"])]
#[validate(at_least_one_of = ["e", "f"])]
pub struct TypeWithAllOneofs {
    pub a: Option<String>,
    pub b: Option<String>,
    pub c: Option<String>,
    pub d: Option<String>,
    pub e: Option<String>,
    pub f: Option<String>,
}

/// CustomTypeAlias is a custom alias
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[x_validation(
    rule = "self >= 100 && self <= 1000",
    message = "invalid CustomTypeAlias value"
)]
pub struct CustomTypeAlias(pub i32);

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Oneof::crd()]
}
