//! The catalogue of webop's schema markers: every controller-gen CRD validation marker that
//! webop spells as `#[validate(...)]`, `#[schema(...)]` or `#[x_validation(...)]`, declared once
//! in [`catalogue!`] with its key, payload, placement, the field types it fits, its apply order
//! and an example.
//!
//! Two crates read it:
//! - `webop-attrs` (compile time) parses, checks and turns markers into tokens from the
//!   [`MarkerSpec`]s of [`CATALOGUE`], without a line per marker;
//! - `webop` (run time) re-exports [`Marker`] (the `'static` data form that derived code
//!   builds) and applies each variant to a schema in `webop::schema::markers`, in the order of
//!   [`MarkerSpec::priority`].
//!
//! Adding a marker is a row in `catalogue.rs` and its effect in `webop`'s `apply_one`: the
//! compiler then asks for nothing else, and `tests/manifests/marker_catalogue.rs` derives a schema from
//! the row's example to prove that it parses, checks, emits and applies.

mod catalogue;
mod define;

/// The `'static` payload of `#[x_validation(...)]`: a CEL validation rule
/// (`+kubebuilder:validation:XValidation`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct XValidation {
    pub rule: &'static str,
    pub message: Option<&'static str>,
    pub message_expression: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub field_path: Option<&'static str>,
    pub optional_old_self: Option<bool>,
}

/// The `'static` payload of `#[schema(external_docs(...))]` (`+kubebuilder:externalDocs`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ExternalDocs {
    pub url: &'static str,
    pub description: Option<&'static str>,
}

/// The reasons a CEL rule may give (apiextensions `FieldValueErrorReason`).
pub const REASONS: [&str; 4] = [
    "FieldValueRequired",
    "FieldValueInvalid",
    "FieldValueForbidden",
    "FieldValueDuplicate",
];

/// The attribute a marker is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `#[validate(key ...)]`, also inside `#[validate(items(...))]`.
    Validate,
    /// `#[schema(key ...)]`.
    Schema,
    /// `#[x_validation(...)]`: the attribute's arguments are the marker's payload.
    XValidation,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Validate, Family::Schema, Family::XValidation];

    /// The family of the attribute named `name`.
    pub fn named(name: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .find(|family| family.attribute() == name)
    }

    /// The attribute's name.
    pub const fn attribute(self) -> &'static str {
        match self {
            Family::Validate => "validate",
            Family::Schema => "schema",
            Family::XValidation => "x_validation",
        }
    }
}

/// Where a marker may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On a struct field.
    Field,
    /// On a struct or enum: the schema of the type wherever it is used.
    Type,
    /// Inside `#[validate(items(...))]`: the schema of an array's items
    /// (`+kubebuilder:validation:items:<Marker>`).
    Items,
}

/// The field types a marker applies to, checked at compile time for the std types (other types
/// are checked when the schema is built, as controller-gen checks them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fits {
    Any,
    /// Integers and floats.
    Numbers,
    /// Strings, or any field that is also `int_or_string`.
    Text,
    /// `Vec`, sets and arrays.
    Arrays,
    /// Maps.
    Objects,
}

/// What a marker's value is: how it is written in the attribute, how it is parsed and checked,
/// and the type of the runtime [`Marker`]'s payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payload {
    /// No value (`nullable`); the runtime variant has no payload.
    Bare,
    /// `key` or `key = true|false`: a `bool`.
    Flag,
    /// `key = 1`, `-2`, `0.5`: an `f64`, a whole number where the field is an integer.
    Number,
    /// `key = 3`, zero or more: an `i64`.
    Count,
    /// `key = "..."`, checked by the rule: a `&'static str`.
    Text(TextRule),
    /// `key = ["a", "b"]` or controller-gen's `"a;b"`: a `&'static [&'static str]`.
    Texts,
    /// A JSON value of the field's type (`1`, `"a"`, `[...]`, `json(r#"..."#)`): its JSON text.
    Value,
    /// JSON values of the field's type (`["A", "B"]` or `"A;B"`): their JSON texts.
    Values,
    /// Any JSON value: its JSON text.
    Json,
    /// `key(<validate keys>)`: markers for an array's items, a `&'static [Marker]`.
    Items,
    /// `key(entry = ..., ...)`, or the attribute's own arguments for [`Family::XValidation`]: a
    /// struct named like the marker with one field per entry (`Option`s for optional entries).
    Record(&'static [RecordField]),
}

/// What a `Payload::Text` may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRule {
    Any,
    NonEmpty,
    /// A regular expression the API server compiles (RE2).
    Pattern,
    /// An absolute URL.
    Url,
    /// One of these values.
    OneOf(&'static [&'static str]),
}

/// One entry of a `Payload::Record`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordField {
    pub key: &'static str,
    pub payload: Payload,
    pub required: bool,
}

impl RecordField {
    pub const fn required(key: &'static str, payload: Payload) -> Self {
        RecordField {
            key,
            payload,
            required: true,
        }
    }

    pub const fn optional(key: &'static str, payload: Payload) -> Self {
        RecordField {
            key,
            payload,
            required: false,
        }
    }
}

/// The example a catalogue row carries: the marker's attribute written at `place` on a field of
/// type `ty` (with `given` attributes beside it on the field), as `stringify!` wrote them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    pub place: Place,
    pub attribute: &'static str,
    pub given: &'static [&'static str],
    pub ty: &'static str,
}

/// Everything the catalogue says about one marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerSpec {
    pub kind: MarkerKind,
    /// The [`Marker`] variant's name, which is also the name of a `Payload::Record`'s struct.
    pub name: &'static str,
    /// controller-gen's spelling.
    pub go: &'static str,
    /// webop's key (for [`Family::XValidation`], the attribute's name).
    pub key: &'static str,
    pub families: &'static [Family],
    pub payload: Payload,
    pub on: &'static [Place],
    pub fits: Fits,
    /// controller-gen's `ApplyPriority`: lower applies first, equal ones in written order.
    pub priority: i32,
    /// Whether one item may carry the marker more than once.
    pub repeatable: bool,
    pub example: Example,
}

impl MarkerSpec {
    /// The marker written as `key` in `family`.
    pub fn find(family: Family, key: &str) -> Option<&'static MarkerSpec> {
        CATALOGUE
            .iter()
            .find(|spec| spec.key == key && spec.families.contains(&family))
    }

    /// The keys of `family`, in catalogue order.
    pub fn keys(family: Family) -> impl Iterator<Item = &'static str> {
        CATALOGUE
            .iter()
            .filter(move |spec| spec.families.contains(&family))
            .map(|spec| spec.key)
    }
}

pub use define::{CATALOGUE, Marker, MarkerKind};
