//! The definitions of named types: structs (controller-gen's `structToSchema`), enums of unit
//! variants and newtypes (a named Go type over another type).

use std::collections::BTreeMap;

use super::{JSON, JSONSchemaProps, Marker, ValidationRule, apply, typed};

fn apply_or_panic(schema: &mut JSONSchemaProps, markers: &[Marker], at: &str) {
    if let Err(err) = apply(schema, markers) {
        panic!("webop: invalid attribute on {at}: {err}");
    }
}

/// The definition of a struct under construction: one call per field, then `finish`.
pub struct StructSchema {
    type_name: &'static str,
    properties: BTreeMap<String, JSONSchemaProps>,
    required: Vec<String>,
    embedded: Vec<JSONSchemaProps>,
    immutable: Vec<String>,
}

impl StructSchema {
    /// Starts the definition of the struct `type_name` (named in error messages).
    pub fn new(type_name: &'static str) -> Self {
        Self {
            type_name,
            properties: BTreeMap::new(),
            required: Vec::new(),
            embedded: Vec::new(),
            immutable: Vec::new(),
        }
    }

    /// Adds the property `name`: `schema` is the field type's use site, `description` the
    /// field's doc comment, `markers` the field's attributes, applied here as controller-gen
    /// applies field markers (to the reference, before flattening).
    pub fn field(
        &mut self,
        name: &str,
        required: bool,
        description: Option<&str>,
        mut schema: JSONSchemaProps,
        markers: &[Marker],
    ) {
        schema.description = description.map(str::to_owned);
        apply_or_panic(&mut schema, markers, &format!("{}.{name}", self.type_name));
        if required {
            self.required.push(name.to_owned());
        }
        if markers.contains(&Marker::Immutable) {
            self.immutable.push(name.to_owned());
        }
        self.properties.insert(name.to_owned(), schema);
    }

    /// Inlines a `#[serde(flatten)]` field, as controller-gen inlines an embedded Go struct: its
    /// schema becomes an `allOf` branch that the flattener merges into this struct.
    pub fn flatten(&mut self, mut schema: JSONSchemaProps, markers: &[Marker]) {
        schema.description = None;
        apply_or_panic(
            &mut schema,
            markers,
            &format!("{} (flattened field)", self.type_name),
        );
        self.embedded.push(schema);
    }

    /// The definition: `description` is the struct's doc comment, `markers` the attributes
    /// written on the struct itself.
    pub fn finish(self, description: Option<&str>, markers: &[Marker]) -> JSONSchemaProps {
        let mut required = self.required;
        required.sort();
        // The field's own `self == oldSelf` does not run when an optional field is removed, so
        // controller-gen guards that on the parent.
        let guards: Vec<ValidationRule> = self
            .immutable
            .iter()
            .filter(|name| !required.contains(name))
            .map(|name| ValidationRule {
                rule: format!("!has(oldSelf.{name}) || has(self.{name})"),
                message: Some(format!("field {name} is immutable once set")),
                ..ValidationRule::default()
            })
            .collect();
        let mut schema = JSONSchemaProps {
            x_kubernetes_validations: (!guards.is_empty()).then_some(guards),
            description: description.map(str::to_owned),
            // Go's `properties` is an `omitempty` map: a struct without fields has none.
            properties: (!self.properties.is_empty()).then_some(self.properties),
            required: (!required.is_empty()).then_some(required),
            all_of: (!self.embedded.is_empty()).then_some(self.embedded),
            ..typed("object", None)
        };
        apply_or_panic(&mut schema, markers, self.type_name);
        schema
    }
}

/// The definition of an enum of unit variants: a string limited to the variants' serialized
/// names, in declaration order (what `+kubebuilder:validation:Enum=A;B;C` on the Go type gives).
pub fn enum_definition(
    type_name: &str,
    description: Option<&str>,
    values: &[&str],
    markers: &[Marker],
) -> JSONSchemaProps {
    let mut schema = JSONSchemaProps {
        description: description.map(str::to_owned),
        enum_: Some(
            values
                .iter()
                .map(|v| JSON(serde_json::Value::String((*v).to_owned())))
                .collect(),
        ),
        ..typed("string", None)
    };
    apply_or_panic(&mut schema, markers, type_name);
    schema
}

/// The definition of a newtype: the inner type's use site with the newtype's doc comment and
/// attributes (Go: `type Name Inner` with markers).
pub fn newtype_definition(
    type_name: &str,
    mut inner: JSONSchemaProps,
    description: Option<&str>,
    markers: &[Marker],
) -> JSONSchemaProps {
    inner.description = description.map(str::to_owned);
    apply_or_panic(&mut inner, markers, type_name);
    inner
}

/// What a reference to a newtype carries: for a newtype over a scalar, the type and format of
/// its definition, after the newtype's own attributes (Go's reference to `type Phase string` is
/// `{type: string, $ref}`; to `type Flag bool` marked `+kubebuilder:validation:Type=string`,
/// `{type: string, $ref}`); nothing otherwise.
pub fn newtype_reference(inner: &JSONSchemaProps, definition: &JSONSchemaProps) -> JSONSchemaProps {
    let scalar = matches!(
        inner.type_.as_deref(),
        Some("string" | "integer" | "number" | "boolean")
    );
    if scalar && inner.items.is_none() {
        JSONSchemaProps {
            type_: definition.type_.clone(),
            format: definition.format.clone(),
            ..JSONSchemaProps::default()
        }
    } else {
        JSONSchemaProps::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Definitions, Schema, flatten};

    #[test]
    fn required_fields_are_sorted_and_field_docs_are_set() {
        let mut defs = Definitions::default();
        let mut s = StructSchema::new("Spec");
        s.field(
            "port",
            true,
            Some("field doc"),
            i32::use_site(&mut defs),
            &[Marker::Minimum(1.0)],
        );
        s.field("image", true, None, String::use_site(&mut defs), &[]);
        s.field("note", false, None, String::use_site(&mut defs), &[]);
        let schema = s.finish(Some("Spec doc"), &[]);
        assert_eq!(
            schema.required,
            Some(vec!["image".to_owned(), "port".to_owned()])
        );
        let port = &schema.properties.as_ref().unwrap()["port"];
        assert_eq!(
            (port.description.as_deref(), port.minimum),
            (Some("field doc"), Some(1.0))
        );
        assert_eq!(schema.description.as_deref(), Some("Spec doc"));
    }

    #[test]
    fn a_struct_without_fields_has_no_properties() {
        let schema = StructSchema::new("Empty").finish(Some("nothing"), &[]);
        assert_eq!(
            (schema.properties, schema.type_.as_deref()),
            (None, Some("object"))
        );
    }

    #[test]
    fn no_required_list_when_nothing_is_required() {
        let mut s = StructSchema::new("Status");
        s.field(
            "phase",
            false,
            None,
            String::use_site(&mut Definitions::default()),
            &[],
        );
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
            String::use_site(&mut Definitions::default()),
            &[Marker::Maximum(1.0)],
        );
    }

    #[test]
    fn flattened_fields_join_the_parent_when_flattened() {
        let mut defs = Definitions::default();
        let mut inner = StructSchema::new("Inner");
        inner.field("a", true, None, String::use_site(&mut defs), &[]);
        let inner = inner.finish(Some("inner doc"), &[]);
        let mut outer = StructSchema::new("Outer");
        outer.field("b", true, None, String::use_site(&mut defs), &[]);
        outer.flatten(inner, &[]);
        let schema = flatten(&defs, outer.finish(Some("outer doc"), &[]));
        assert_eq!(schema.required, Some(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(schema.description.as_deref(), Some("outer doc"));
    }

    #[test]
    fn optional_immutable_fields_are_guarded_on_the_parent() {
        let mut defs = Definitions::default();
        let mut s = StructSchema::new("Spec");
        s.field(
            "a",
            true,
            None,
            String::use_site(&mut defs),
            &[Marker::Immutable],
        );
        s.field(
            "b",
            false,
            None,
            String::use_site(&mut defs),
            &[Marker::Immutable],
        );
        let schema = s.finish(None, &[]);
        let rules = schema.x_kubernetes_validations.unwrap();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].rule, "!has(oldSelf.b) || has(self.b)");
        assert_eq!(
            rules[0].message.as_deref(),
            Some("field b is immutable once set")
        );
        let a = &schema.properties.unwrap()["a"];
        assert_eq!(
            a.x_kubernetes_validations.as_ref().unwrap()[0].rule,
            "self == oldSelf"
        );
    }

    #[test]
    fn enums_keep_declaration_order() {
        let schema = enum_definition(
            "Phase",
            Some("phase"),
            &["Pending", "Running", "Failed"],
            &[],
        );
        let values: Vec<_> = schema.enum_.unwrap().into_iter().map(|v| v.0).collect();
        assert_eq!(values, ["Pending", "Running", "Failed"]);
    }

    #[test]
    fn newtype_references_carry_scalar_types_only() {
        let int32 = typed("integer", Some("int32"));
        assert_eq!(newtype_reference(&int32, &int32), int32);
        let array = typed("array", None);
        assert_eq!(
            newtype_reference(&array, &array),
            JSONSchemaProps::default()
        );
    }

    #[test]
    fn a_newtype_reference_has_the_type_its_attributes_give() {
        let inner = typed("boolean", None);
        let definition = newtype_definition("Flag", inner.clone(), None, &[Marker::Type("string")]);
        assert_eq!(
            newtype_reference(&inner, &definition),
            typed("string", None)
        );
    }
}
