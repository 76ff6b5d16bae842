//! `#[validate(...)]`, `#[schema(...)]` and `#[x_validation(...)]`: the schema attributes of a
//! field or a type, read through the marker catalogue (`webop-markers`). What a key means, where
//! it may be written, what its value is and which field types it fits are the catalogue's; this
//! module only walks the attributes.

mod fit;
mod payload;
mod tokens;

use proc_macro2::Span;
use syn::Attribute;
pub use webop_markers::{Family, MarkerKind, MarkerSpec, Place};

use crate::args::{Arg, Seen, args_of, path_name, unknown_key};
use crate::errors::Errors;
pub use fit::check_fit;
pub use tokens::slice;

/// One marker and where it was written.
#[derive(Clone, Debug)]
pub struct MarkerAt {
    pub kind: MarkerKind,
    pub value: Value,
    pub span: Span,
}

/// Markers are equal whatever their spans.
impl PartialEq for MarkerAt {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.value == other.value
    }
}

impl MarkerAt {
    pub fn spec(&self) -> &'static MarkerSpec {
        self.kind.spec()
    }
}

/// A marker's parsed payload, shaped by its [`Payload`](webop_markers::Payload). JSON payloads
/// are JSON texts, checked when parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bare,
    Flag(bool),
    Number(f64),
    Count(i64),
    Text(String),
    Texts(Vec<String>),
    Items(Vec<MarkerAt>),
    /// A record's entries in the catalogue's order; `None` for an optional entry not given.
    Record(Vec<Option<Value>>),
}

/// `#[validate(required)]` / `#[validate(optional)]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Required,
    Optional,
}

/// Everything the schema attributes of one field or type say.
#[derive(Clone, Debug, Default)]
pub struct SchemaAttrs {
    pub markers: Vec<MarkerAt>,
    /// On a field: whether it is required. On a struct: the default for its fields.
    pub presence: Option<(Presence, Span)>,
    /// `#[validate(schemaless)]`: no schema is inferred from the type.
    pub schemaless: bool,
}

impl SchemaAttrs {
    pub fn find(&self, kind: MarkerKind) -> Option<&MarkerAt> {
        self.markers.iter().find(|m| m.kind == kind)
    }

    pub fn has(&self, kind: MarkerKind) -> bool {
        self.find(kind).is_some()
    }

    /// The JSON text of `#[schema(default = ...)]`, if given.
    pub fn default_json(&self) -> Option<&str> {
        match self.find(MarkerKind::Default).map(|m| &m.value) {
            Some(Value::Text(json)) => Some(json),
            _ => None,
        }
    }
}

/// The `#[validate]` keys that are not schema markers: they decide whether a field is
/// required, and whether its schema is inferred at all.
const NOT_MARKERS: [&str; 3] = ["required", "optional", "schemaless"];

/// Parses every schema attribute among `attrs`, written at `place` (a field or a type); every
/// error goes to `errors`, and parsing goes on with the next argument.
pub fn parse(attrs: &[Attribute], place: Place, errors: &Errors) -> SchemaAttrs {
    let mut out = SchemaAttrs::default();
    let mut seen = Seen::default();
    for attr in attrs {
        let Some(family) = Family::named(&path_name(&attr.meta)) else {
            continue;
        };
        let Some(args) = errors.ok(args_of(attr)) else {
            continue;
        };
        // An attribute that is one marker: its arguments are the payload.
        if let Some(spec) = MarkerSpec::find(family, family.attribute()) {
            let span = attr.meta.path().segments[0].ident.span();
            let attribute = family.attribute();
            let what = format!("#[{attribute}]");
            if let Some(value) = errors.ok(payload::record(spec, &args, attribute, &what, span)) {
                out.markers.push(MarkerAt {
                    kind: spec.kind,
                    value,
                    span,
                });
            }
            continue;
        }
        for arg in &args {
            if family == Family::Validate && NOT_MARKERS.contains(&arg.name().as_str()) {
                errors.ok(not_marker(arg, place, &mut seen, &mut out));
            } else if let Some(marker) = errors.ok(marker(arg, family, place, &mut seen)) {
                out.markers.push(marker);
            }
        }
    }
    errors.ok(check_list_map_keys(&out.markers));
    out
}

/// One `key ...` of `#[validate]` or `#[schema]` that names a marker.
fn marker(arg: &Arg, family: Family, place: Place, seen: &mut Seen) -> syn::Result<MarkerAt> {
    let spec = MarkerSpec::find(family, &arg.name());
    // Each one-of constraint is a rule of its own, so it may be given several times
    // (controller-gen: repeated `+kubebuilder:validation:AtMostOneOf` markers).
    if !spec.is_some_and(|spec| spec.repeatable) {
        seen.once(arg)?;
    }
    let Some(spec) = spec else {
        return Err(unknown_key(arg, family.attribute(), &keys(family)));
    };
    if !spec.on.contains(&place) {
        return Err(misplaced(arg, place));
    }
    Ok(MarkerAt {
        kind: spec.kind,
        value: payload::parse(spec, family, arg)?,
        span: arg.span(),
    })
}

/// `x_validation(...)` written inside `#[attribute(...)]` (`#[root(x_validation(...))]`): the
/// rule, checked as `#[x_validation]` checks it.
pub fn nested_x_validation(arg: &Arg, attribute: &str) -> syn::Result<MarkerAt> {
    let spec = MarkerSpec::find(Family::XValidation, "x_validation")
        .expect("the catalogue has x_validation");
    let value = payload::record(
        spec,
        &arg.nested()?,
        &format!("{attribute}(x_validation)"),
        "`x_validation`",
        arg.key.span(),
    )?;
    Ok(MarkerAt {
        kind: spec.kind,
        value,
        span: arg.key.span(),
    })
}

/// Every key of `family`: its markers, and for `#[validate]` the keys that are not markers.
fn keys(family: Family) -> Vec<&'static str> {
    let mut keys: Vec<&str> = MarkerSpec::keys(family).collect();
    if family == Family::Validate {
        keys.extend(NOT_MARKERS);
    }
    keys
}

/// The error for a key written where the catalogue does not allow it.
fn misplaced(arg: &Arg, place: Place) -> syn::Error {
    let name = arg.name();
    let message = match place {
        Place::Type => format!(
            "`{name}` applies to a field, not to a type (controller-gen: a field-only marker)"
        ),
        Place::Field => format!(
            "`{name}` applies to a struct, not to a field: write it on the struct that has these fields"
        ),
        Place::Items => format!("`{name}` cannot be used inside `items(...)`"),
    };
    syn::Error::new(arg.key.span(), message)
}

/// `required`, `optional` and `schemaless`.
fn not_marker(arg: &Arg, place: Place, seen: &mut Seen, out: &mut SchemaAttrs) -> syn::Result<()> {
    seen.once(arg)?;
    let name = arg.name();
    if place == Place::Items {
        return Err(misplaced(arg, place));
    }
    if name == "schemaless" {
        if place == Place::Type {
            return Err(misplaced(arg, place));
        }
        arg.bare()?;
        out.schemaless = true;
        return Ok(());
    }
    // On a struct: the default for its fields (controller-gen's package-level
    // `+kubebuilder:validation:Optional` / `Required`).
    arg.bare()?;
    if let Some((_, span)) = out.presence {
        let mut err = syn::Error::new(
            arg.key.span(),
            "a field is either `required` or `optional`, not both",
        );
        err.combine(syn::Error::new(span, "the other one is here"));
        return Err(err);
    }
    let presence = if name == "required" {
        Presence::Required
    } else {
        Presence::Optional
    };
    out.presence = Some((presence, arg.key.span()));
    Ok(())
}

/// `items(...)`: the markers of an array's items, each checked where it stands.
fn items(arg: &Arg) -> syn::Result<Vec<MarkerAt>> {
    let errors = Errors::new();
    let mut seen = Seen::default();
    let mut markers = Vec::new();
    for inner in &arg.nested()? {
        if NOT_MARKERS.contains(&inner.name().as_str()) {
            let mut ignored = SchemaAttrs::default();
            errors.ok(not_marker(inner, Place::Items, &mut seen, &mut ignored));
        } else if let Some(marker) =
            errors.ok(marker(inner, Family::Validate, Place::Items, &mut seen))
        {
            markers.push(marker);
        }
    }
    errors.finish_with(markers)
}

/// controller-gen refuses `listMapKey` on a list that is not `listType=map`.
fn check_list_map_keys(markers: &[MarkerAt]) -> syn::Result<()> {
    let is_map = markers
        .iter()
        .any(|m| m.kind == MarkerKind::ListType && m.value == Value::Text("map".into()));
    match markers.iter().find(|m| m.kind == MarkerKind::ListMapKeys) {
        Some(keys) if !is_map => Err(syn::Error::new(
            keys.span,
            "`list_map_key` needs `list_type = \"map\"` on the same field (an associative list)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
