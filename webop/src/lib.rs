//! webop: kubebuilder for Rust. This is the runtime an operator scaffolded by the `webop`
//! command-line tool (the `webop-cli` package) depends on.
//!
//! It re-exports the runtime crates under the features that select them, as kube re-exports
//! kube-core, kube-client and kube-runtime: `webop-core` (always: the derives and attributes of
//! [`prelude`], the schema model, CRD and RBAC assembly, the controller-gen compatible YAML
//! emitter), `webop-manager` (`manager`, on by default), `webop-testkit` (`testkit`) and
//! `webop-envtest` (`envtest`). A generated project's API crate depends on `webop-core` alone,
//! under the name `webop`, so that its clients and `webop manifests` build none of the rest.
//! See `docs/ARCHITECTURE.md` for the map.

pub use webop_core::{crd, manifests, names, prelude, rbac, schema, webhook, yaml};

#[cfg(feature = "manager")]
pub use webop_manager as manager;

#[cfg(feature = "testkit")]
pub use webop_testkit as testkit;

#[cfg(feature = "envtest")]
pub use webop_envtest as envtest;

/// What macro-generated code names. Not a public API.
#[doc(hidden)]
pub use webop_core::__private;
