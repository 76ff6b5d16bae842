//! controller-tools' `pkg/crd/testdata/plural`: the names of `TestQuota` (plural `testquotas`),
//! and a root type with a field of its own and no `spec`: `#[resource(flatten_spec)]`.
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/plural/plural.example.com_testquotas.yaml` (but for the version annotation).
//!
//! Go:
//! ```go
//! // +groupName=plural.example.com
//! // +versionName=v1
//! type TestQuota struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Test string `json:"test,omitempty"`
//! }
//! ```

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
