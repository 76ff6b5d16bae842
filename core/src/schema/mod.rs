//! The `Schema` trait: a Rust type's OpenAPI v3 schema, built the way controller-gen builds a Go
//! type's, so a CRD comes out byte-identical.
//!
//! controller-gen works in two phases, and so does webop: first every use of a named type is a
//! reference (`$ref`) carrying the use site's own attributes, with the named type's schema kept
//! aside as a definition; then the flattener replaces each reference by its definition merged
//! with the use site (`flatten`). That merge decides which description wins, the order of CEL
//! rules, and which conflicting bounds are hoisted into `allOf`.
//!
//! The model is k8s-openapi's `JSONSchemaProps`, so a schema drops straight into a
//! `CustomResourceDefinition`.

mod definitions;
mod flatten;
mod k8s;
mod markers;
mod std_types;
mod structs;

pub use definitions::Definitions;
pub use flatten::flatten;
pub use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    ExternalDocumentation, JSON, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
    ValidationRule,
};
pub use markers::{
    CATALOGUE, ExternalDocs, Marker, MarkerError, MarkerKind, MarkerSpec, REASONS, XValidation,
    apply,
};
pub use std_types::Bytes;
pub use structs::{StructSchema, enum_definition, newtype_definition, newtype_reference};

/// A type with an OpenAPI v3 schema, as controller-gen would write it for the equivalent Go type.
///
/// Derive it with `#[derive(Schema)]` (or `#[derive(CustomResource)]` on a spec); webop implements
/// it for the std types and the k8s-openapi types CRDs use.
pub trait Schema {
    /// The schema where the type is used. Builtin types (numbers, strings, lists, maps) are
    /// inline; named types (structs, enums, newtypes) are a reference, registered with their
    /// definition in `defs` through [`Definitions::named`].
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps;

    /// The complete schema with every reference flattened: what a CRD embeds.
    fn schema() -> JSONSchemaProps {
        let mut defs = Definitions::default();
        let schema = Self::use_site(&mut defs);
        flatten(&defs, schema)
    }

    /// Whether a struct field of this type may be absent. `Option<T>` is; everything else is
    /// required unless the field says otherwise (serde default, `#[schema(default)]`,
    /// `#[validate(optional)]`).
    const OPTIONAL: bool = false;

    /// The serialized names of a struct's fields, for compile-time checks of JSON paths
    /// (`#[subresource(scale(spec_path = ".spec.replicas"))]`).
    const FIELD_NAMES: &'static [&'static str] = &[];

    /// Whether the type may have properties beyond `FIELD_NAMES` (anything but a derived struct
    /// without flattened fields), so a path into it cannot be checked.
    const OPEN: bool = true;
}

/// Whether a JSON path component `name` can be a property of `T` (always, when `T` is open).
pub const fn has_field<T: Schema + ?Sized>(name: &str) -> bool {
    T::OPEN || declares_field::<T>(name)
}

/// Whether `T` has a field whose wire name is `name` (a derived struct's own fields only).
pub const fn declares_field<T: Schema + ?Sized>(name: &str) -> bool {
    let mut i = 0;
    while i < T::FIELD_NAMES.len() {
        if bytes_eq(T::FIELD_NAMES[i].as_bytes(), name.as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A schema with just a type (and a format).
pub fn typed(ty: &str, format: Option<&str>) -> JSONSchemaProps {
    JSONSchemaProps {
        type_: Some(ty.to_owned()),
        format: format.map(str::to_owned),
        ..JSONSchemaProps::default()
    }
}
