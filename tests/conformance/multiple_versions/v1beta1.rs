//! `multiple_versions/v1beta1/types.go`.

use webop::prelude::*;

use super::OuterStruct;

#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1beta1",
    kind = "VersionedResource"
)]
#[resource(singular = "versionedresource", spec_required)]
#[subresource(status = "()")]
pub struct VersionedResourceSpec {
    #[serde(default)]
    pub r#struct: OuterStruct,
}
