//! The `Schema` trait: a Rust type's OpenAPI v3 schema, fully inlined as controller-gen inlines
//! Go types into a CRD, plus the pieces macro-generated code builds schemas from.
//!
//! The model is k8s-openapi's `JSONSchemaProps`, so a schema drops straight into a
//! `CustomResourceDefinition`.

mod k8s;
mod markers;
mod std_types;
mod structs;

pub use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    ExternalDocumentation, JSON, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
    ValidationRule,
};
pub use markers::{Marker, MarkerError, REASONS, XValidation, apply};
pub use std_types::Bytes;
pub use structs::{StructSchema, described, enum_schema};

/// A type with an OpenAPI v3 schema, as controller-gen would write it for the equivalent Go type.
///
/// Derive it with `#[derive(Schema)]` (or `#[derive(CustomResource)]` on a spec); webop implements
/// it for the std types and the k8s-openapi types CRDs use.
pub trait Schema {
    /// The schema: type, format, properties, and the markers written on the type itself. A
    /// field's own attributes are applied on top by the containing struct.
    fn schema() -> JSONSchemaProps;

    /// Whether a struct field of this type may be absent. `Option<T>` is; everything else is
    /// required unless the field says otherwise (serde default, `#[schema(default)]`,
    /// `#[validate(optional)]`).
    const OPTIONAL: bool = false;
}

/// A schema with just a type (and a format).
pub fn typed(ty: &str, format: Option<&str>) -> JSONSchemaProps {
    JSONSchemaProps {
        type_: Some(ty.to_owned()),
        format: format.map(str::to_owned),
        ..JSONSchemaProps::default()
    }
}
