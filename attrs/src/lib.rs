//! The webop attribute catalogue: every webop attribute parsed and checked into plain values,
//! with spans for errors. Shared by `webop-macros` (compile time) and `webop manifests` (which
//! reads `#[rbac]` from source). The schema markers themselves are declared in `webop-markers`.

pub mod args;
pub mod checks;
pub mod doc;
pub mod errors;
pub mod input;
pub mod json;
pub mod kind;
pub mod names;
pub mod rbac;
pub mod regex_check;
pub mod schema;
pub mod serde_attrs;
pub mod suggest;
pub mod types;
pub mod webhook;
