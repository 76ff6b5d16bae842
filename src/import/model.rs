//! The Rust items an import writes: structs, enums of unit variants and newtypes, with their
//! doc comments and webop attributes, as plain data that `render` turns into source text.

use webop_markers::Family;

use super::attribute::Written;

/// A struct, enum or newtype of the API crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Struct(Struct),
    Enum(Enum),
    Newtype(Newtype),
}

impl Item {
    pub fn name(&self) -> &str {
        match self {
            Item::Struct(s) => &s.name,
            Item::Enum(e) => &e.name,
            Item::Newtype(n) => &n.name,
        }
    }
}

/// A struct with named fields (`#[derive(Schema)]`), or a kind's spec
/// (`#[derive(CustomResource)]`, with the kind's attributes in `kind_attributes`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Struct {
    pub name: String,
    pub doc: Option<String>,
    /// The kind's own attributes (`#[resource(...)]`, `#[printcolumn(...)]`, ...), written as
    /// they are; present on a spec only.
    pub kind_attributes: Vec<String>,
    pub markers: Vec<Written>,
    pub fields: Vec<Field>,
    /// A spec without a `spec` property: a unit struct.
    pub unit: bool,
}

/// One field of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The Rust identifier (`r#type` for a keyword).
    pub ident: String,
    /// The serialized name when `rename_all = "camelCase"` does not give it.
    pub rename: Option<String>,
    pub doc: Option<String>,
    pub ty: String,
    pub markers: Vec<Written>,
    /// `#[serde(flatten)]`: its type's properties sit in the struct's (an embedded Go struct).
    pub flatten: bool,
}

/// An enum of unit variants: a string with these values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enum {
    pub name: String,
    pub doc: Option<String>,
    pub markers: Vec<Written>,
    /// Each variant's identifier and, when it is not the value, the value.
    pub variants: Vec<(String, Option<String>)>,
}

/// `pub struct Name(Inner);`: a named type over another, for a schema whose keywords belong to
/// a type rather than a field (list items, map values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Newtype {
    pub name: String,
    pub doc: Option<String>,
    pub markers: Vec<Written>,
    pub inner: String,
}

/// Markers grouped as written: one `#[validate(...)]`, one `#[schema(...)]`, then each
/// `#[x_validation(...)]`.
pub fn attribute_lines(markers: &[Written]) -> Vec<String> {
    let mut lines = Vec::new();
    for family in [Family::Validate, Family::Schema] {
        let keys: Vec<&str> = markers
            .iter()
            .filter(|m| m.family == family)
            .map(|m| m.text.as_str())
            .collect();
        if !keys.is_empty() {
            lines.push(format!("#[{}({})]", family.attribute(), keys.join(", ")));
        }
    }
    for marker in markers.iter().filter(|m| m.family == Family::XValidation) {
        lines.push(format!(
            "#[{}({})]",
            Family::XValidation.attribute(),
            marker.text
        ));
    }
    lines
}
