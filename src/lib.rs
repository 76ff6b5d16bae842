//! webop: kubebuilder for Rust.
//!
//! This crate is both the `webop` command-line tool (feature `cli`, on by default) and the runtime
//! library that generated operators depend on (`default-features = false`): the derives and
//! attributes of `webop::prelude`, the schema model behind them, CRD and RBAC assembly, and the
//! controller-gen compatible YAML emitter. The runtime lives in crates of its own, re-exported
//! here under the features that select them, as kube re-exports kube-core, kube-client and
//! kube-runtime: `webop-core` (always), `webop-manager` (`manager`), `webop-testkit`
//! (`testkit`), `webop-envtest` (`envtest`). A generated project's API crate depends on
//! `webop-core` alone, under the name `webop`, so that its clients and `webop manifests` build
//! none of the rest. See `docs/ARCHITECTURE.md` for the map.

pub use webop_core::{crd, manifests, names, prelude, rbac, schema, webhook, yaml};

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
pub use webop_manager as manager;

#[cfg(feature = "testkit")]
pub use webop_testkit as testkit;

#[cfg(feature = "envtest")]
pub use webop_envtest as envtest;

#[cfg(feature = "validate")]
pub mod validate;

/// What macro-generated code names. Not a public API.
#[doc(hidden)]
pub use webop_core::__private;
