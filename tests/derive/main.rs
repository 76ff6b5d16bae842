//! The derive macros: the types they accept and the CRDs they make. Their compile errors are
//! trybuild cases beside the macros (`macros/tests/ui.rs`).

mod derive_flatten_spec;
mod derive_k8s_types;
mod derive_serde;
mod derive_webapp;
mod derive_without_spec;
