//! The documents themselves: one OpenAPI v3 document per group-version (its paths, and every
//! schema they refer to, transitively) and one Swagger 2.0 document for the whole server.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::builtin::builtins;
use super::meta::V3_PREFIX;
use super::paths::{PathItem, path_items};
use super::{custom, meta};
use crate::discovery::Catalog;
use crate::resources::ResourceType;

/// The key of a group-version in the `/openapi/v3` discovery document: `api/v1`,
/// `apis/apps/v1`.
pub fn group_version_key(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// Every served group-version as (key, group, version), sorted by key.
pub fn group_versions(types: &[ResourceType]) -> Vec<(String, String, String)> {
    let mut keys: BTreeMap<String, (String, String)> = BTreeMap::new();
    for t in types {
        for version in &t.versions {
            keys.entry(group_version_key(&t.group, version))
                .or_insert_with(|| (t.group.clone(), version.clone()));
        }
    }
    keys.into_iter().map(|(key, (g, v))| (key, g, v)).collect()
}

/// The paths and the definitions of one type at one version.
fn type_at_version(t: &ResourceType, version: &str) -> (Vec<PathItem>, Vec<(String, Value)>) {
    if t.custom {
        let definitions = custom::definitions(t, version);
        let name = custom::definition_name(&t.group, version, &t.kind);
        (path_items(t, version, &name), definitions)
    } else {
        let builtins = builtins();
        let Some(name) = builtins.name_of(&t.group, version, &t.kind) else {
            return (Vec::new(), Vec::new());
        };
        let definitions = [name.to_string(), format!("{name}List")]
            .into_iter()
            .filter_map(|n| Some((n.clone(), builtins.definitions.get(&n)?.clone())))
            .collect();
        (path_items(t, version, name), definitions)
    }
}

/// The names of the definitions `value` refers to with `prefix`.
fn collect_references(value: &Value, prefix: &str, names: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(prefix))
            {
                names.push(name.to_string());
            }
            map.values()
                .for_each(|child| collect_references(child, prefix, names));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|child| collect_references(child, prefix, names)),
        _ => {}
    }
}

/// Adds to `schemas` the shared definitions (apimachinery types) that `paths` and `schemas`
/// refer to, transitively, so that the document is self-contained.
fn add_referenced_definitions(paths: &Map<String, Value>, schemas: &mut BTreeMap<String, Value>) {
    let mut pending = Vec::new();
    paths
        .values()
        .chain(schemas.values())
        .for_each(|value| collect_references(value, V3_PREFIX, &mut pending));
    while let Some(name) = pending.pop() {
        if schemas.contains_key(&name) {
            continue;
        }
        if let Some(definition) = builtins().definitions.get(&name) {
            collect_references(definition, V3_PREFIX, &mut pending);
            schemas.insert(name, definition.clone());
        }
    }
}

fn info() -> Value {
    let version = Catalog::version();
    json!({"title": "Kubernetes", "version": version["gitVersion"]})
}

/// The OpenAPI v3 document of one group-version, if anything is served there.
pub fn v3(types: &[ResourceType], group: &str, version: &str) -> Option<Value> {
    let mut paths = Map::new();
    let mut schemas = BTreeMap::new();
    for t in types
        .iter()
        .filter(|t| t.group == group && t.versions.iter().any(|v| v == version))
    {
        let (items, definitions) = type_at_version(t, version);
        for item in items {
            paths.insert(item.path.clone(), item.v3());
        }
        schemas.extend(definitions);
    }
    if paths.is_empty() {
        return None;
    }
    add_referenced_definitions(&paths, &mut schemas);
    Some(json!({
        "openapi": "3.0.0",
        "info": info(),
        "paths": paths,
        "components": {"schemas": schemas},
    }))
}

/// The Swagger 2.0 document of the whole server.
pub fn v2(types: &[ResourceType]) -> Value {
    let mut paths = Map::new();
    let mut definitions = BTreeMap::new();
    for t in types {
        for version in &t.versions {
            let (items, kinds) = type_at_version(t, version);
            for item in items {
                paths.insert(item.path.clone(), item.v2());
            }
            definitions.extend(kinds);
        }
    }
    for (name, definition) in meta::definitions() {
        definitions.insert(name.to_string(), definition);
    }
    let definitions: Map<String, Value> = definitions
        .into_iter()
        .map(|(name, schema)| (name, to_v2(schema)))
        .collect();
    json!({"swagger": "2.0", "info": info(), "paths": paths, "definitions": definitions})
}

/// A v3 schema in Swagger 2.0 terms: references point at `#/definitions/`, and the keywords v2
/// lacks (`nullable`, `anyOf`, `oneOf`, `not`) are dropped, as the API server's v2 conversion
/// of CRD schemas drops them.
fn to_v2(mut schema: Value) -> Value {
    if let Value::Object(node) = &mut schema {
        for dropped in ["nullable", "anyOf", "oneOf", "not"] {
            node.remove(dropped);
        }
        if let Some(Value::String(reference)) = node.get_mut("$ref")
            && let Some(name) = reference.strip_prefix(V3_PREFIX)
        {
            *reference = format!("#/definitions/{name}");
        }
        for (key, child) in node.iter_mut() {
            let nested = matches!(key.as_str(), "items" | "additionalProperties")
                || (key == "allOf" && child.is_array());
            if key == "properties"
                && let Value::Object(properties) = child
            {
                for property in properties.values_mut() {
                    *property = to_v2(std::mem::take(property));
                }
            } else if nested {
                *child = match std::mem::take(child) {
                    Value::Array(all) => Value::Array(all.into_iter().map(to_v2).collect()),
                    other => to_v2(other),
                };
            }
        }
    }
    schema
}
