//! The structural-schema engine for custom resources, in the API server's order: prune unknown
//! fields, apply defaults, drop the remaining nulls of non-nullable fields, then validate
//! (OpenAPI v3 rules, then the `x-kubernetes-list-type` uniqueness pass, then CEL
//! `x-kubernetes-validations`), reporting Kubernetes-shaped field errors.

mod cel;
mod default;
mod formats;
mod lists;
mod location;
mod numbers;
mod prune;
mod types;
mod validate;

use serde_json::Value;

use super::status::{FieldError, FieldErrorKind, NIL_FIELD};

/// What a write validates: the whole object, or (a status-subresource write) its status alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A create or a write of the main resource.
    Object,
    /// A write of the status subresource.
    Status,
}

/// Prunes unknown fields and applies defaults to an object of a type with this root schema.
/// Returns the paths of the unknown fields that were dropped.
pub fn prune_and_default(object: &mut Value, schema: &Value) -> Vec<String> {
    let removed = prune::prune_root(object, schema);
    default::apply(object, schema);
    default::drop_nulls(object, schema);
    removed
}

/// Drops the fields of `object` its root schema does not declare, without defaulting (built-in
/// kinds, whose Go types drop unknown fields as they decode).
pub fn prune_unknown(object: &mut Value, schema: &Value) {
    prune::prune_root(object, schema);
}

/// The paths of the fields of `object` that its root schema does not declare (what pruning
/// would drop), leaving the object as it is.
pub fn unknown_fields(object: &Value, schema: &Value) -> Vec<String> {
    prune::prune_root(&mut object.clone(), schema)
}

/// Validates an object against its root schema, including CEL rules (with `old` for transition
/// rules). Returns every problem found.
pub fn validate(
    object: &Value,
    old: Option<&Value>,
    schema: &Value,
    scope: Scope,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    match scope {
        Scope::Object => validate::root(object, schema, &mut errors),
        Scope::Status => {
            if let (Some(status), Some(status_schema)) =
                (object.get("status"), schema.pointer("/properties/status"))
            {
                validate::status(status, status_schema, &mut errors);
            }
        }
    }
    lists::duplicates(object, schema, &mut errors);
    if !cel::has_rules(schema) {
        return errors;
    }
    // Type, required, enum, length and count errors make rules meaningless; the API server then
    // skips them all and says so.
    let blocking = errors.iter().any(|e| {
        matches!(
            e.kind,
            FieldErrorKind::NotSupported
                | FieldErrorKind::Required
                | FieldErrorKind::TooLong
                | FieldErrorKind::TooMany
                | FieldErrorKind::TypeInvalid
        )
    });
    if blocking {
        errors.push(FieldError::new(
            NIL_FIELD,
            FieldErrorKind::Invalid,
            Some("null".into()),
            "some validation rules were not checked because the object was invalid; correct the \
             existing errors to complete validation",
        ));
    } else {
        errors.extend(cel::validate(object, old, schema));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_apply_inside_list_items_and_pruning_respects_preserve_unknown_fields() {
        let schema = json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "weight": {"type": "integer", "default": 1}
                }}},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
            }}
        }});
        let mut object = json!({"metadata": {"name": "x"}, "spec": {"items": [{}, {"weight": 3, "junk": true}], "extra": {"any": 1}, "drop": 1}});
        prune_and_default(&mut object, &schema);
        assert_eq!(
            object["spec"],
            json!({"items": [{"weight": 1}, {"weight": 3}], "extra": {"any": 1}})
        );
        assert_eq!(object["metadata"]["name"], "x");
        assert!(validate(&object, None, &schema, Scope::Object).is_empty());
    }

    #[test]
    fn validation_messages_match_the_api_server() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
            "tags": {"type": "array", "maxItems": 1, "items": {"type": "string"}}
        }}}});
        let object = json!({"spec": {"name": "ABCD", "tags": ["a", "b"]}});
        let messages: Vec<String> = validate(&object, None, &schema, Scope::Object)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            messages,
            [
                // The first failing string keyword is the only error, as in kube-openapi.
                "spec.name: Too long: may not be more than 3 bytes",
                "spec.tags: Too many: 2: must have at most 1 items",
            ]
        );
    }
}
