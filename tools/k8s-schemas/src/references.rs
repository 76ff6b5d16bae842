//! controller-gen writes every type fully inlined; webop keeps one schema per type and refers to
//! the others. This puts the references back where k8s-openapi's schema of the type has them:
//! a property (or its items, or its map values) whose type is another k8s type becomes
//! `{"$ref": <type>}` plus the keywords the use site sets on top of that type's own schema (the
//! field's description, a `+default`, a `+mapType`...), which webop applies when it inlines the
//! reference (`core/src/schema/k8s/decode.rs`) as controller-gen did.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::graph::reference;

/// The schemas controller-gen wrote, by schema name: each type's own.
pub type Written = Map<String, Value>;

/// The schema of one type: controller-gen's `written` (at `at`), with references where
/// k8s-openapi's `definition` has them. `refs` collects the referenced types.
pub fn restore(
    definition: &Value,
    written: &Value,
    at: &str,
    all: &Written,
    refs: &mut BTreeSet<String>,
) -> Value {
    if let Some(name) = reference(definition) {
        refs.insert(name.to_owned());
        let own = all
            .get(name)
            .unwrap_or_else(|| panic!("{at}: controller-gen wrote no schema of {name}"));
        let mut out = use_site_keywords(written, own, at);
        out.insert("$ref".into(), json!(name));
        return Value::Object(out);
    }
    let mut out = written
        .as_object()
        .unwrap_or_else(|| panic!("{at}: not an object schema"))
        .clone();
    if let Some(properties) = definition.get("properties").and_then(Value::as_object) {
        let written_properties = written
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{at}: controller-gen wrote no properties"));
        let ours: BTreeSet<&String> = properties.keys().collect();
        let theirs: BTreeSet<&String> = written_properties.keys().collect();
        assert_eq!(
            ours, theirs,
            "{at}: k8s-openapi and the Go type have different fields"
        );
        let restored: Map<String, Value> = properties
            .iter()
            .map(|(property, inner)| {
                let at = format!("{at}.{property}");
                let value = restore(inner, &written_properties[property], &at, all, refs);
                (property.clone(), value)
            })
            .collect();
        out.insert("properties".into(), Value::Object(restored));
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = definition.get(key).filter(|v| v.is_object()) {
            let written_inner = written
                .get(key)
                .unwrap_or_else(|| panic!("{at}: controller-gen wrote no {key}"));
            let at = format!("{at}[{key}]");
            out.insert(key.into(), restore(inner, written_inner, &at, all, refs));
        }
    }
    Value::Object(out)
}

/// The keywords of `used` (a type's schema where a field uses it) that differ from the type's
/// `own` schema. A use site can only add or replace keywords: one that drops a keyword of the
/// type could not be a reference.
fn use_site_keywords(used: &Value, own: &Value, at: &str) -> Map<String, Value> {
    let (used, own) = (used.as_object().unwrap(), own.as_object().unwrap());
    if let Some(dropped) = own.keys().find(|key| !used.contains_key(*key)) {
        panic!("{at}: the use site drops the type's {dropped:?}");
    }
    used.iter()
        .filter(|(key, value)| own.get(*key) != Some(value))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_keeps_what_the_field_adds() {
        let definition = json!({"type": "object", "properties": {
            "a": {"$ref": "#/$defs/T"},
            "b": {"type": "array", "items": {"$ref": "#/$defs/T"}},
            "c": {"type": "string"}}});
        let t = json!({"description": "T's doc", "type": "object", "properties": {"x": {"type": "string"}}});
        let written = json!({"type": "object", "properties": {
            "a": {"description": "a's doc", "default": {}, "type": "object", "properties": {"x": {"type": "string"}}},
            "b": {"description": "b's doc", "type": "array", "items": t.clone()},
            "c": {"description": "c's doc", "type": "string"}}});
        let all: Written = [("T".to_owned(), t)].into_iter().collect();
        let mut refs = BTreeSet::new();
        let restored = restore(&definition, &written, "R", &all, &mut refs);
        assert_eq!(
            restored,
            json!({"type": "object", "properties": {
                "a": {"$ref": "T", "description": "a's doc", "default": {}},
                "b": {"description": "b's doc", "type": "array", "items": {"$ref": "T"}},
                "c": {"description": "c's doc", "type": "string"}}})
        );
        assert_eq!(refs, BTreeSet::from(["T".to_owned()]));
    }

    #[test]
    #[should_panic(expected = "R: k8s-openapi and the Go type have different fields")]
    fn different_fields_are_refused() {
        let definition = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let written = json!({"type": "object", "properties": {"b": {"type": "string"}}});
        restore(
            &definition,
            &written,
            "R",
            &Written::new(),
            &mut BTreeSet::new(),
        );
    }
}
