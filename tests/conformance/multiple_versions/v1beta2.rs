//! `multiple_versions/v1beta2/types.go`: the storage version.

use webop::prelude::*;

use super::OuterStruct;

#[derive(CustomResource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1beta2",
    kind = "VersionedResource"
)]
#[resource(singular = "versionedresource", spec_required)]
#[subresource(status = "()")]
#[storage_version]
pub struct VersionedResourceSpec {
    #[serde(default)]
    pub r#struct: OuterStruct,
}
