//! The webop attribute catalogue: every webop attribute parsed and checked into plain values,
//! with spans for errors. Shared by `webop-macros` (compile time) and `webop manifests` (which
//! reads `#[rbac]` from source).

pub mod args;
pub mod checks;
pub mod doc;
pub mod json;
pub mod kind_attrs;
pub mod names;
pub mod rbac;
pub mod regex_check;
pub mod schema_attrs;
pub mod serde_attrs;
