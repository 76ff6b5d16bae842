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
pub mod webhook;
pub mod yaml;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod import;
#[cfg(feature = "cli")]
pub mod project;
#[cfg(feature = "cli")]
pub mod scaffold;
#[cfg(feature = "cli")]
pub mod upgrade;

#[cfg(feature = "manager")]
pub mod manager;

#[cfg(feature = "testkit")]
pub mod testkit;

#[cfg(feature = "envtest")]
pub mod envtest;

#[cfg(feature = "validate")]
pub mod validate;

/// What macro-generated code names. Not a public API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
