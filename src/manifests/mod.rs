//! From CRDs and RBAC rules to the files of `config/crd/bases/` and `config/rbac/role.yaml`.
//!
//! Signatures only: `webop manifests` (the CLI) codes against them; the yaml branch implements
//! them.

use serde_json::Value;

use crate::rbac::Rule;

/// One generated manifest: its path relative to the project root (`/`-separated) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestFile {
    pub path: String,
    pub contents: String,
}

/// A CRD that cannot be written (no group or plural, ...).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// `config/crd/bases/<group>_<plural>.yaml` for the CustomResourceDefinition `crd` (its JSON).
pub fn crd_file(crd: &Value) -> Result<ManifestFile, Error> {
    let _ = crd;
    unimplemented!("the yaml branch fills this in")
}

/// `config/rbac/role.yaml` for `rules`, named `manager-role`.
pub fn role_file(rules: &[Rule]) -> ManifestFile {
    let _ = rules;
    unimplemented!("the yaml branch fills this in")
}
