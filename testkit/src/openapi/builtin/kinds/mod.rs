//! The top-level fields of each built-in kind the testkit serves, with Kubernetes' descriptions,
//! one module per part of the API. The types below them come from `webop::schema` (k8s-openapi's
//! schemas, as CRDs embed them); where webop has no schema for a type (most statuses,
//! `NodeSpec`, `EndpointSubset`, `CustomResourceDefinitionSpec`), the field is an open object
//! that accepts any content.

mod core;
mod groups;
mod workloads;

use serde_json::{Value, json};

use webop_core::schema::Schema;

/// One field of a kind: name, description, schema.
pub(super) type Field = (&'static str, &'static str, Value);

/// A built-in kind: its group-version, description, required fields and fields (besides
/// `apiVersion`, `kind` and `metadata`, which every kind has).
pub(super) struct Kind {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub description: &'static str,
    pub required: &'static [&'static str],
    pub fields: fn() -> Vec<Field>,
}

/// Every built-in kind.
pub(super) fn kinds() -> impl Iterator<Item = &'static Kind> {
    core::KINDS
        .iter()
        .chain(workloads::KINDS)
        .chain(groups::KINDS)
}

/// The schema `webop::schema` has for `T`, fully inlined.
fn webop<T: Schema + ?Sized>() -> Value {
    serde_json::to_value(T::schema()).unwrap_or_else(|_| json!({"type": "object"}))
}

/// A type webop has no schema for: an object that takes anything.
fn open() -> Value {
    json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
}

/// An object with these fields.
fn object(fields: Vec<Field>) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .into_iter()
        .map(|(name, description, mut schema)| {
            schema["description"] = json!(description);
            (name.to_string(), schema)
        })
        .collect();
    json!({"type": "object", "properties": properties})
}
