//! controller-tools' `pkg/crd/testdata/external_docs`: `+kubebuilder:externalDocs` on fields and
//! on a named type.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/testdata.kubebuilder.io_externaldocs.yaml` (but for the version annotation).
//!
//! Go:
//! ```go
//! // +kubebuilder:object:root=true
//! // ExternalDocSpec defines the desired state of ExternalDoc
//! type ExternalDocSpec struct {
//!     // This tests that external documentation can be attached to a field with url and description.
//!     // +kubebuilder:externalDocs:url="https://example.com/docs",description="external docs description"
//!     FieldWithExternalDoc string `json:"fieldWithExternalDoc,omitempty"`
//!     // This tests that external documentation can be attached with only url.
//!     // +kubebuilder:externalDocs:url="https://example.com/docs"
//!     FieldWithExternalDocURLOnly string `json:"fieldWithExternalDocURLOnly,omitempty"`
//!     // This tests that external documentation from a type is propagated.
//!     TypeWithExternalDoc TypeWithExternalDoc `json:"typeWithExternalDoc,omitempty"`
//! }
//! // TypeWithExternalDoc is a type with external documentation.
//! // +kubebuilder:externalDocs:url="https://example.com/type-docs",description="type-level external docs"
//! type TypeWithExternalDoc string
//! // ExternalDoc is the Schema for the external docs API
//! type ExternalDoc struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec ExternalDocSpec `json:"spec,omitempty"`
//! }
//! ```

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
