//! Decoding the generated schema data: a type's schema is a JSON text whose references to other
//! types are indices into a list of their `Schema::schema` functions.

use crate::schema::{JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool};

/// A referenced type's `Schema::schema`.
pub(crate) type SchemaFn = fn() -> JSONSchemaProps;

/// The schema of the type `name` (a schema name, for messages) from its data `json`, with every
/// `$ref` replaced by the referenced type's schema, inlined as controller-gen inlines it: the
/// field's description and markers win over the type's.
pub(crate) fn decode(name: &str, json: &str, refs: &[SchemaFn]) -> JSONSchemaProps {
    let mut schema: JSONSchemaProps = serde_json::from_str(json)
        .unwrap_or_else(|err| panic!("webop: corrupt generated schema of {name}: {err}"));
    inline(&mut schema, refs);
    #[cfg(test)]
    if TAG_TYPES.get() {
        schema.id = Some(name.to_owned());
    }
    schema
}

#[cfg(test)]
thread_local! {
    /// When set, decoded schemas carry their type's name in `id` (which controller-gen never
    /// writes), so that tests can tell which type each part of an inlined schema comes from.
    pub(crate) static TAG_TYPES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn inline(schema: &mut JSONSchemaProps, refs: &[SchemaFn]) {
    if let Some(reference) = schema.ref_path.take() {
        let target = reference
            .parse::<usize>()
            .ok()
            .and_then(|index| refs.get(index))
            .unwrap_or_else(|| {
                panic!("webop: generated schema refers to a missing type {reference}")
            });
        let mut inlined = target();
        if let Some(description) = schema.description.take() {
            inlined.description = Some(description);
        }
        if let Some(default) = schema.default.take() {
            inlined.default = Some(default);
        }
        if let Some(map_type) = schema.x_kubernetes_map_type.take() {
            inlined.x_kubernetes_map_type = Some(map_type);
        }
        debug_assert_eq!(
            *schema,
            JSONSchemaProps::default(),
            "webop: generated data puts a keyword beside $ref that is not inlined"
        );
        *schema = inlined;
        return;
    }
    for property in schema.properties.iter_mut().flat_map(|p| p.values_mut()) {
        inline(property, refs);
    }
    if let Some(JSONSchemaPropsOrArray::Schema(items)) = &mut schema.items {
        inline(items, refs);
    }
    if let Some(JSONSchemaPropsOrBool::Schema(values)) = &mut schema.additional_properties {
        inline(values, refs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Schema, typed};

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
                "a":{"$ref":"0","description":"the field's doc","default":{}},
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
