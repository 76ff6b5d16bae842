//! Decoding the generated schema data: a type's schema is a JSON text whose references to other
//! types are indices into a list of their `Schema::schema` functions.

use serde_json::Value;

use crate::schema::JSONSchemaProps;

/// A referenced type's `Schema::schema`.
pub(crate) type SchemaFn = fn() -> JSONSchemaProps;

/// The schema of the type `name` (a schema name, for messages) from its data `json`, with every
/// `$ref` replaced by the referenced type's schema, inlined as controller-gen inlines it.
pub(crate) fn decode(name: &str, json: &str, refs: &[SchemaFn]) -> JSONSchemaProps {
    let corrupt = |err: serde_json::Error| -> ! {
        panic!("webop: corrupt generated schema of {name}: {err}")
    };
    let mut schema: Value = serde_json::from_str(json).unwrap_or_else(|err| corrupt(err));
    inline(&mut schema, refs);
    serde_json::from_value(schema).unwrap_or_else(|err| corrupt(err))
}

fn inline(schema: &mut Value, refs: &[SchemaFn]) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(reference) = object.remove("$ref") {
        let index = reference.as_str().unwrap_or_default();
        let target = index
            .parse::<usize>()
            .ok()
            .and_then(|index| refs.get(index))
            .unwrap_or_else(|| panic!("webop: generated schema refers to a missing type {index}"));
        let mut inlined = serde_json::to_value(target()).expect("a schema is JSON");
        // What the use site says (a field's description, its `+k8s:immutable` rule, ...) wins
        // over the type's own keywords, as in controller-gen's flattening.
        let keywords = inlined.as_object_mut().expect("a schema is an object");
        keywords.extend(std::mem::take(object));
        *schema = inlined;
        return;
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" => value
                .as_object_mut()
                .into_iter()
                .flat_map(|properties| properties.values_mut())
                .for_each(|property| inline(property, refs)),
            "items" | "additionalProperties" => inline(value, refs),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, Schema, typed};

    #[test]
    fn references_are_inlined_with_the_fields_description_and_markers() {
        fn port() -> JSONSchemaProps {
            JSONSchemaProps {
                description: Some("the type's doc".into()),
                ..typed("object", None)
            }
        }
        let schema = decode(
            "Test",
            r#"{"type":"object","properties":{
                "a":{"$ref":"0","description":"the field's doc","default":{},
                    "x-kubernetes-validations":[{"rule":"self == oldSelf"}]},
                "b":{"type":"array","items":{"$ref":"0"}},
                "c":{"type":"object","additionalProperties":{"$ref":"1"}}}}"#,
            &[port, String::schema],
        );
        let properties = schema.properties.unwrap();
        assert_eq!(
            properties["a"].description.as_deref(),
            Some("the field's doc")
        );
        assert_eq!(properties["a"].type_.as_deref(), Some("object"));
        assert!(properties["a"].default.is_some());
        assert_eq!(
            properties["a"].x_kubernetes_validations.as_ref().unwrap()[0].rule,
            "self == oldSelf"
        );
        let Some(JSONSchemaPropsOrArray::Schema(items)) = &properties["b"].items else {
            panic!("b has items");
        };
        assert_eq!(**items, port());
        let Some(JSONSchemaPropsOrBool::Schema(values)) = &properties["c"].additional_properties
        else {
            panic!("c has values");
        };
        assert_eq!(**values, typed("string", None));
    }

    #[test]
    #[should_panic(expected = "webop: generated schema refers to a missing type 3")]
    fn a_dangling_reference_names_the_index() {
        decode("Test", r#"{"$ref":"3"}"#, &[]);
    }
}
