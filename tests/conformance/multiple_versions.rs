//! controller-tools' `pkg/crd/testdata/multiple_versions`: one kind in two versions, the second
//! the storage version, sharing a type whose field is `+structType=atomic`; both versions have
//! the status subresource but no status field.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `multiple_versions/common.go`, `multiple_versions/v1beta1/` and `multiple_versions/v1beta2/`
//! (the same plus `+kubebuilder:storageversion`).
//!
//! A Go struct field without `omitempty` (`Struct` with it) is a Rust field with a serde
//! default here; a status subresource without a status field is `#[subresource(status = "()")]`.

use webop::prelude::*;

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InnerStruct {
    pub foo: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OuterStruct {
    #[schema(struct_type = "atomic")]
    #[serde(default)]
    pub r#struct: InnerStruct,
}

#[path = "multiple_versions/v1beta1.rs"]
pub mod v1beta1;
#[path = "multiple_versions/v1beta2.rs"]
pub mod v1beta2;

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    webop::crd::assemble([
        v1beta1::VersionedResource::crd_version(),
        v1beta2::VersionedResource::crd_version(),
    ])
    .unwrap()
}
