//! The webop attribute catalogue: every webop attribute parsed and checked into plain values.
//! Shared by `webop-macros` (compile time) and `webop manifests` (which reads `#[rbac]` from source).

pub mod rbac;
