//! Building the schema of a struct (controller-gen's `structToSchema`) and of an enum of unit
//! variants, from what `#[derive(Schema)]` found in the source.

use std::collections::BTreeMap;

use super::{JSONSchemaProps, Marker, apply, typed};

/// The schema of a struct under construction: one call per field, then `finish`.
pub struct StructSchema {
    type_name: &'static str,
    schema: JSONSchemaProps,
    properties: BTreeMap<String, JSONSchemaProps>,
    required: Vec<String>,
}

impl StructSchema {
    /// Starts the schema of the struct `type_name` (named in error messages).
    pub fn new(type_name: &'static str) -> Self {
        Self {
            type_name,
            schema: typed("object", None),
            properties: BTreeMap::new(),
            required: Vec::new(),
        }
    }

    /// Adds the property `name`: `schema` is the field type's schema, `description` the field's
    /// doc comment (it replaces the type's, as in controller-gen, when present), `markers` the
    /// field's attributes.
    pub fn field(
        &mut self,
        name: &str,
        required: bool,
        description: Option<&str>,
        mut schema: JSONSchemaProps,
        markers: &[Marker],
    ) {
        if let Some(description) = description {
            schema.description = Some(description.to_owned());
        }
        self.apply(&mut schema, markers, name);
        if required {
            self.required.push(name.to_owned());
        }
        self.properties.insert(name.to_owned(), schema);
    }

    /// Inlines the properties of a `#[serde(flatten)]` field, as controller-gen inlines an
    /// embedded Go struct: its properties and required fields join this struct's.
    pub fn flatten(&mut self, mut schema: JSONSchemaProps, markers: &[Marker]) {
        self.apply(&mut schema, markers, "(flattened)");
        for (name, property) in schema.properties.unwrap_or_default() {
            self.properties.insert(name, property);
        }
        self.required.extend(schema.required.unwrap_or_default());
    }

    /// The finished schema: `description` is the struct's doc comment, `markers` the attributes
    /// written on the struct itself.
    pub fn finish(mut self, description: Option<&str>, markers: &[Marker]) -> JSONSchemaProps {
        self.required.sort();
        self.required.dedup();
        let mut schema = std::mem::take(&mut self.schema);
        schema.description = description.map(str::to_owned);
        schema.properties = Some(std::mem::take(&mut self.properties));
        schema.required = (!self.required.is_empty()).then(|| std::mem::take(&mut self.required));
        self.apply(&mut schema, markers, "");
        schema
    }

    fn apply(&self, schema: &mut JSONSchemaProps, markers: &[Marker], field: &str) {
        if let Err(err) = apply(schema, markers) {
            let at = if field.is_empty() {
                self.type_name.to_owned()
            } else {
                format!("{}.{field}", self.type_name)
            };
            panic!("webop: invalid attribute on {at}: {err}");
        }
    }
}

/// The schema of a newtype (a named Go type): the inner type's schema, the newtype's doc
/// comment as its description, and the newtype's attributes.
pub fn described(
    type_name: &str,
    mut schema: JSONSchemaProps,
    description: Option<&str>,
    markers: &[Marker],
) -> JSONSchemaProps {
    if let Some(description) = description {
        schema.description = Some(description.to_owned());
    }
    if let Err(err) = apply(&mut schema, markers) {
        panic!("webop: invalid attribute on {type_name}: {err}");
    }
    schema
}

/// The schema of an enum of unit variants: a string limited to the variants' serialized names,
/// in declaration order (what `+kubebuilder:validation:Enum=A;B;C` on the Go type gives).
pub fn enum_schema(
    description: Option<&str>,
    values: &[&str],
    markers: &[Marker],
) -> JSONSchemaProps {
    let mut schema = JSONSchemaProps {
        description: description.map(str::to_owned),
        enum_: Some(
            values
                .iter()
                .map(|v| super::JSON(serde_json::Value::String((*v).to_owned())))
                .collect(),
        ),
        ..typed("string", None)
    };
    if let Err(err) = apply(&mut schema, markers) {
        panic!("webop: invalid attribute on enum {values:?}: {err}");
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    #[test]
    fn required_fields_are_sorted_and_descriptions_replace_the_types() {
        let mut s = StructSchema::new("Spec");
        let mut port = i32::schema();
        port.description = Some("type doc".into());
        s.field(
            "port",
            true,
            Some("field doc"),
            port,
            &[Marker::Minimum(1.0)],
        );
        s.field("image", true, None, String::schema(), &[]);
        s.field("note", false, None, String::schema(), &[]);
        let schema = s.finish(Some("Spec doc"), &[]);
        assert_eq!(
            schema.required,
            Some(vec!["image".to_owned(), "port".to_owned()])
        );
        let port = &schema.properties.as_ref().unwrap()["port"];
        assert_eq!(port.description.as_deref(), Some("field doc"));
        assert_eq!(port.minimum, Some(1.0));
        assert_eq!(schema.description.as_deref(), Some("Spec doc"));
    }

    #[test]
    fn no_required_list_when_nothing_is_required() {
        let mut s = StructSchema::new("Status");
        s.field("phase", false, None, String::schema(), &[]);
        assert_eq!(s.finish(None, &[]).required, None);
    }

    #[test]
    #[should_panic(
        expected = "webop: invalid attribute on Spec.image: must apply maximum to a numeric value, found string"
    )]
    fn a_marker_that_does_not_fit_names_the_field() {
        let mut s = StructSchema::new("Spec");
        s.field(
            "image",
            true,
            None,
            String::schema(),
            &[Marker::Maximum(1.0)],
        );
    }

    #[test]
    fn flattened_fields_join_the_parent() {
        let mut inner = StructSchema::new("Inner");
        inner.field("a", true, None, String::schema(), &[]);
        let mut outer = StructSchema::new("Outer");
        outer.field("b", true, None, String::schema(), &[]);
        outer.flatten(inner.finish(None, &[]), &[]);
        let schema = outer.finish(None, &[]);
        assert_eq!(schema.required, Some(vec!["a".to_owned(), "b".to_owned()]));
    }

    #[test]
    fn enums_keep_declaration_order() {
        let schema = enum_schema(Some("phase"), &["Pending", "Running", "Failed"], &[]);
        let values: Vec<_> = schema.enum_.unwrap().into_iter().map(|v| v.0).collect();
        assert_eq!(values, ["Pending", "Running", "Failed"]);
    }
}
