//! The structural-schema engine for custom resources, in the API server's order: prune unknown
//! fields, apply defaults, then validate (OpenAPI v3 rules, `x-kubernetes-*` extensions and CEL
//! `x-kubernetes-validations`), reporting Kubernetes-shaped field errors.

mod cel;
mod default;
mod formats;
mod prune;
mod validate;

use serde_json::Value;

use super::status::FieldError;

/// Prunes unknown fields and applies defaults to an object of a type with this root schema.
pub fn prune_and_default(object: &mut Value, schema: &Value) {
    prune::prune_root(object, schema);
    default::apply(object, schema);
}

/// Validates an object against its root schema, including CEL rules (with `old` for transition
/// rules). Returns every problem found.
pub fn validate(object: &Value, old: Option<&Value>, schema: &Value) -> Vec<FieldError> {
    let mut errors = Vec::new();
    validate::root(object, schema, &mut errors);
    if errors.is_empty() {
        errors.extend(cel::validate(object, old, schema));
    }
    errors
}
