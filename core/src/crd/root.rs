//! The schema of a kind's root object: what controller-gen flattens out of a Go type that embeds
//! `TypeMeta` and `ObjectMeta` and has `Spec` and `Status` fields.

use std::collections::BTreeMap;

use crate::schema::{Definitions, JSONSchemaProps, Marker, apply, flatten, typed};

const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object.\n\
Servers should convert recognized schemas to the latest internal value, and\n\
may reject unrecognized values.\n\
More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents.\n\
Servers may infer this from the endpoint the client submits requests to.\n\
Cannot be updated.\n\
In CamelCase.\n\
More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

fn described(description: &str) -> JSONSchemaProps {
    JSONSchemaProps {
        description: Some(description.to_owned()),
        ..typed("string", None)
    }
}

/// What every object's root has: `apiVersion`, `kind`, and `metadata` (just `type: object`: the
/// API server owns it).
fn object_properties() -> [(String, JSONSchemaProps); 3] {
    [
        ("apiVersion".to_owned(), described(API_VERSION_DOC)),
        ("kind".to_owned(), described(KIND_DOC)),
        ("metadata".to_owned(), typed("object", None)),
    ]
}

/// The `openAPIV3Schema` of a kind, flattened: `apiVersion`, `kind`, `metadata` (just
/// `type: object`: the API server owns it) and, when the kind has them, `spec` and `status`,
/// where `spec` and `status` are the use sites of their types and `defs` holds the definitions.
/// `description` is the root's (`#[resource(doc = ...)]`); `required` lists the root's
/// required fields (`spec`, `status`: `#[resource(spec_required, status_required)]`); `rules`
/// are the root's CEL rules (`#[root(x_validation(...))]`).
pub fn root_schema(
    defs: &Definitions,
    description: Option<&str>,
    spec: Option<JSONSchemaProps>,
    status: Option<JSONSchemaProps>,
    required: &[&str],
    rules: &[Marker],
) -> JSONSchemaProps {
    let mut properties = BTreeMap::from(object_properties());
    if let Some(spec) = spec {
        properties.insert("spec".to_owned(), spec);
    }
    if let Some(status) = status {
        properties.insert("status".to_owned(), status);
    }
    let mut root = JSONSchemaProps {
        description: description.map(str::to_owned),
        properties: Some(properties),
        required: (!required.is_empty())
            .then(|| required.iter().map(|name| (*name).to_owned()).collect()),
        ..typed("object", None)
    };
    apply_rules(&mut root, rules);
    flatten(defs, root)
}

/// The root's CEL rules, after the rules a flattened spec brought (controller-gen applies the
/// markers of one Go type in the order written).
fn apply_rules(root: &mut JSONSchemaProps, rules: &[Marker]) {
    if let Err(err) = apply(root, rules) {
        panic!("webop: invalid #[root] attribute: {err}");
    }
}

/// The `openAPIV3Schema` of a kind with `#[resource(flatten_spec)]`: the spec's schema is the
/// root's (its properties, required fields, rules and every other keyword), with `apiVersion`,
/// `kind`, `metadata` and `status` added. `description` is the root's, else the spec type's;
/// `status_required` lists `status` after the spec's required fields (Go: a `Status` field,
/// the root's last, without `omitempty`); `rules` are the root's CEL rules.
pub fn flattened_root_schema(
    defs: &Definitions,
    description: Option<&str>,
    spec: JSONSchemaProps,
    status: Option<JSONSchemaProps>,
    status_required: bool,
    rules: &[Marker],
) -> JSONSchemaProps {
    // Flattened first, so that a spec defined by reference is resolved to its properties.
    let mut root = flatten(defs, spec);
    let properties = root.properties.get_or_insert_with(BTreeMap::new);
    properties.extend(object_properties());
    if let Some(status) = status {
        properties.insert("status".to_owned(), flatten(defs, status));
    }
    if status_required {
        root.required
            .get_or_insert_with(Vec::new)
            .push("status".to_owned());
    }
    if let Some(description) = description {
        root.description = Some(description.to_owned());
    }
    root.type_ = Some("object".to_owned());
    apply_rules(&mut root, rules);
    root
}
