//! webop-cli: the `webop` command-line tool of webop, kubebuilder for Rust, as a library (its
//! binary is `src/main.rs`; its tests drive it through these modules).
//!
//! Operators never depend on this package: they depend on the `webop` runtime facade
//! (`webop/`), and their API crates on `webop-core`. The CLI reads what those crates define
//! (the schema model, CRD and RBAC assembly, the YAML emitter), re-exported here at the paths
//! the CLI's modules name. See `docs/ARCHITECTURE.md` for the map.

pub use webop_core::{crd, manifests, names, prelude, rbac, schema, webhook, yaml};

pub mod cli;
pub mod import;
pub mod plugins;
pub mod project;
pub mod scaffold;
pub mod scaffolds;
pub mod toolchain;
pub mod upgrade;

#[cfg(feature = "validate")]
pub mod validate;
