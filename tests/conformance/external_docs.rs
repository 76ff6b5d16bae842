//! controller-tools' `pkg/crd/testdata/external_docs`: `+kubebuilder:externalDocs` on fields and
//! on a named type.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `external_docs/types.go`.

use webop::prelude::*;

/// ExternalDocSpec defines the desired state of ExternalDoc
#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1",
    kind = "ExternalDoc"
)]
#[resource(doc = "ExternalDoc is the Schema for the external docs API")]
#[serde(rename_all = "camelCase", default)]
pub struct ExternalDocSpec {
    /// This tests that external documentation can be attached to a field with url and description.
    #[schema(external_docs(
        url = "https://example.com/docs",
        description = "external docs description"
    ))]
    pub field_with_external_doc: String,

    /// This tests that external documentation can be attached with only url.
    #[schema(external_docs(url = "https://example.com/docs"))]
    #[serde(rename = "fieldWithExternalDocURLOnly")]
    pub field_with_external_doc_url_only: String,

    /// This tests that external documentation from a type is propagated.
    pub type_with_external_doc: TypeWithExternalDoc,
}

/// TypeWithExternalDoc is a type with external documentation.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[schema(external_docs(
    url = "https://example.com/type-docs",
    description = "type-level external docs"
))]
pub struct TypeWithExternalDoc(pub String);

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![ExternalDoc::crd()]
}
