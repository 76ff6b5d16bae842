//! webop: kubebuilder for Rust.
//!
//! This crate is both the `webop` command-line tool (feature `cli`, on by default) and the runtime
//! library that generated operators depend on (`default-features = false`): the derives and
//! attributes of `webop::prelude`, the schema model behind them, CRD and RBAC assembly, and the
//! controller-gen compatible YAML emitter. See `docs/ARCHITECTURE.md` for the map.

pub mod crd;
pub mod manifests;
pub mod names;
pub mod prelude;
pub mod rbac;
pub mod schema;
pub mod yaml;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod project;
#[cfg(feature = "cli")]
pub mod scaffold;

#[cfg(feature = "manager")]
pub mod manager;

#[cfg(feature = "testkit")]
pub mod testkit;

/// What macro-generated code names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use k8s_openapi;
    pub use kube_core;
    pub use serde;
    pub use serde_json;

    /// The value of a field's `#[schema(default = ...)]`, for the `default` serde uses when the
    /// field is absent (webop's `Deserialize` derive).
    pub fn default_value<T: serde::de::DeserializeOwned>(json: &str, field: &str) -> T {
        serde_json::from_str(json).unwrap_or_else(|err| {
            panic!("webop: the default {json} of {field} does not fit the field's type: {err}")
        })
    }
}
