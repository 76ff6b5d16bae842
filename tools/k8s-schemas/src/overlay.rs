//! What controller-gen reads from Go markers of k8s.io/api that the Kubernetes OpenAPI spec, as
//! k8s-openapi ships it, does not carry: `+listType`/`+listMapKey`, `+mapType`/`+structType`,
//! `+default`, the docs of named Go types inlined as items, and the few fields the spec lists as
//! required although controller-gen, which follows `omitempty` and `+optional`, does not (the
//! `name` of an inlined `LocalObjectReference`). Written by hand from the Kubernetes API types;
//! `emit` refuses a rule that matches nothing in any version.

use serde_json::{Map, Value, json};

/// One marker.
#[derive(Clone, Copy, Debug)]
pub enum Mark {
    /// `+listType=...`
    ListType(&'static str),
    /// `+listMapKey=...` (all of them, in order)
    ListMapKeys(&'static [&'static str]),
    /// `+mapType=...` on a map field, or `+structType=...` on a struct type or field.
    MapType(&'static str),
    /// `+default=...`, as JSON text.
    Default(&'static str),
    /// The doc comment of a named Go type the items (or map values) of a field are of, which
    /// controller-gen inlines and the spec drops (`[]Capability`: "Capability represent ...").
    ItemDoc(&'static str),
    /// A field the spec lists as required that controller-gen does not (`omitempty` or
    /// `+optional`).
    Optional,
}

use Mark::*;

/// A field's markers, reused by many rules.
const ATOMIC_LIST: &[Mark] = &[ListType("atomic")];
const SET_LIST: &[Mark] = &[ListType("set")];
const MAP_LIST_BY_NAME: &[Mark] = &[ListType("map"), ListMapKeys(&["name"])];
const MAP_LIST_BY_TYPE: &[Mark] = &[ListType("map"), ListMapKeys(&["type"])];
const ATOMIC: &[Mark] = &[MapType("atomic")];
/// The `name` of an inlined `LocalObjectReference`: `+default=""`, `+optional`.
const REFERENCE_NAME: &[Mark] = &[Default(r#""""#), Optional];

/// Markers on `field` of the type `type_name` (a schema name), or on the type itself when `field`
/// is empty.
pub struct Rule {
    pub type_name: &'static str,
    pub field: &'static str,
    pub marks: &'static [Mark],
}

const fn rule(type_name: &'static str, field: &'static str, marks: &'static [Mark]) -> Rule {
    Rule {
        type_name,
        field,
        marks,
    }
}

/// The schema name of a type of the API group `$group` (`core.v1`, `apps.v1`, ...).
macro_rules! ty {
    ($group:literal, $name:literal) => {
        concat!("io.k8s.api.", $group, ".", $name)
    };
}

include!("overlay_rules.rs");

/// Applies the rules of `type_name` to its converted schema.
pub fn apply(type_name: &str, schema: &mut Value) {
    for rule in RULES.iter().filter(|r| r.type_name == type_name) {
        let object = schema.as_object_mut().expect("schemas are objects");
        if rule.field.is_empty() {
            for mark in rule.marks {
                apply_to_type(type_name, object, *mark);
            }
            continue;
        }
        let Some(property) = object
            .get_mut("properties")
            .and_then(|p| p.get_mut(rule.field))
        else {
            continue; // a field of other versions; `unmatched` reports rules that fit none
        };
        let property = property.as_object_mut().expect("schemas are objects");
        let mut optional = false;
        for mark in rule.marks {
            match *mark {
                ListType(list) => {
                    expect_type(property, "array", type_name, rule.field);
                    property.insert("x-kubernetes-list-type".into(), json!(list));
                }
                ListMapKeys(keys) => {
                    expect_type(property, "array", type_name, rule.field);
                    property.insert("x-kubernetes-list-map-keys".into(), json!(keys));
                }
                MapType(map) => {
                    property.insert("x-kubernetes-map-type".into(), json!(map));
                }
                Default(text) => {
                    let value: Value = serde_json::from_str(text).unwrap_or_else(|e| {
                        panic!("{type_name}.{}: default {text}: {e}", rule.field)
                    });
                    property.insert("default".into(), value);
                }
                ItemDoc(doc) => {
                    let key = if property.contains_key("items") {
                        "items"
                    } else {
                        "additionalProperties"
                    };
                    let inner = property
                        .get_mut(key)
                        .and_then(Value::as_object_mut)
                        .unwrap_or_else(|| {
                            panic!("{type_name}.{}: no items to describe", rule.field)
                        });
                    inner.insert("description".into(), json!(doc));
                }
                Optional => optional = true,
            }
        }
        if optional {
            make_optional(object, rule.field, type_name);
        }
    }
}

fn apply_to_type(type_name: &str, object: &mut Map<String, Value>, mark: Mark) {
    match mark {
        MapType(map) => {
            object.insert("x-kubernetes-map-type".into(), json!(map));
        }
        other => panic!("{type_name}: {other:?} applies to fields, not types"),
    }
}

fn expect_type(property: &Map<String, Value>, ty: &str, type_name: &str, field: &str) {
    let found = property.get("type").and_then(Value::as_str);
    assert_eq!(
        found,
        Some(ty),
        "{type_name}.{field}: a list marker needs an array"
    );
}

fn make_optional(object: &mut Map<String, Value>, field: &str, type_name: &str) {
    let mut names: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        names.iter().any(|n| n == field),
        "{type_name}.{field}: already optional, the rule changes nothing"
    );
    names.retain(|n| n != field);
    if names.is_empty() {
        object.remove("required");
    } else {
        object.insert("required".into(), json!(names));
    }
}

/// The rules that matched nothing in `types` (one version's dump), as `Type.field` strings.
pub fn unmatched(types: &Map<String, Value>) -> Vec<String> {
    RULES
        .iter()
        .filter(|rule| {
            let Some(schema) = types.get(rule.type_name) else {
                return true;
            };
            !rule.field.is_empty()
                && schema
                    .pointer(&format!("/properties/{}", rule.field))
                    .is_none()
        })
        .map(|rule| format!("{}.{}", rule.type_name, rule.field))
        .collect()
}
