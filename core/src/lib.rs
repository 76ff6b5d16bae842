//! The core of webop, re-exported by the `webop` crate (depend on that instead): the schema
//! model behind the derives, CRD and RBAC assembly, the webhook model (and, with feature
//! `webhook`, its runtime), the controller-gen compatible YAML emitter, and what macro-generated
//! code names (`__private`). It knows nothing of the manager, the testkit or the CLI, which
//! build on it. See `docs/ARCHITECTURE.md` for the map.

pub mod crd;
pub mod manifests;
pub mod names;
pub mod prelude;
pub mod rbac;
pub mod schema;
pub mod webhook;
pub mod yaml;

/// What macro-generated code names. Not a public API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
