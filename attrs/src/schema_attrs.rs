//! `#[validate(...)]`, `#[schema(...)]` and `#[x_validation(...)]`: the schema attributes of a
//! field or a type, parsed into `Marker`s (the compile-time twin of `webop::schema::Marker`).

use proc_macro2::Span;
use syn::Attribute;

use crate::args::{Arg, Seen, args_of, path_name, unknown_key};
use crate::json::json_text;

/// One schema attribute and where it was written.
#[derive(Clone, Debug)]
pub struct MarkerAt {
    pub marker: Marker,
    pub span: Span,
}

/// Markers are equal whatever their spans.
impl PartialEq for MarkerAt {
    fn eq(&self, other: &Self) -> bool {
        self.marker == other.marker
    }
}

/// A schema attribute. JSON payloads are JSON texts, checked when parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Marker {
    Minimum(f64),
    Maximum(f64),
    ExclusiveMinimum(bool),
    ExclusiveMaximum(bool),
    MultipleOf(f64),
    MinLength(i64),
    MaxLength(i64),
    Pattern(String),
    Format(String),
    Type(String),
    MinItems(i64),
    MaxItems(i64),
    UniqueItems(bool),
    MinProperties(i64),
    MaxProperties(i64),
    Enum(Vec<String>),
    EmbeddedResource,
    IntOrString,
    PreserveUnknownFields,
    AtMostOneOf(Vec<String>),
    ExactlyOneOf(Vec<String>),
    AtLeastOneOf(Vec<String>),
    XValidation(XValidation),
    Items(Vec<MarkerAt>),
    Default(String),
    Example(String),
    Title(String),
    Nullable,
    ListType(String),
    ListMapKeys(Vec<String>),
    MapType(String),
    StructType(String),
    ExternalDocs {
        url: Option<String>,
        description: Option<String>,
    },
    Immutable,
}

/// `#[x_validation(...)]`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct XValidation {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    pub reason: Option<String>,
    pub field_path: Option<String>,
    pub optional_old_self: Option<bool>,
}

/// Where the attributes were written: some only make sense on one of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Field,
    Type,
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
    /// The JSON text of `#[schema(default = ...)]`, if given.
    pub fn default_json(&self) -> Option<&str> {
        self.markers.iter().find_map(|m| match &m.marker {
            Marker::Default(text) => Some(text.as_str()),
            _ => None,
        })
    }

    pub fn has(&self, pred: impl Fn(&Marker) -> bool) -> bool {
        self.markers.iter().any(|m| pred(&m.marker))
    }
}

/// The attribute families this module reads.
pub const ATTRIBUTES: [&str; 3] = ["validate", "schema", "x_validation"];

/// Parses every schema attribute among `attrs`.
pub fn parse(attrs: &[Attribute], target: Target) -> syn::Result<SchemaAttrs> {
    let mut out = SchemaAttrs::default();
    let mut seen = Seen::default();
    for attr in attrs {
        let family = path_name(&attr.meta);
        match family.as_str() {
            "validate" => {
                for arg in args_of(attr)? {
                    validate_arg(&arg, target, &mut seen, &mut out)?;
                }
            }
            "schema" => {
                for arg in args_of(attr)? {
                    seen.once(&arg)?;
                    let marker = schema_arg(&arg)?;
                    out.markers.push(MarkerAt {
                        marker,
                        span: arg.span(),
                    });
                }
            }
            "x_validation" => {
                let span = attr.meta.path().segments[0].ident.span();
                let rule = x_validation(&args_of(attr)?, span)?;
                out.markers.push(MarkerAt {
                    marker: Marker::XValidation(rule),
                    span,
                });
            }
            _ => {}
        }
    }
    check_list_map_keys(&out.markers)?;
    Ok(out)
}

const VALIDATE_KEYS: [&str; 26] = [
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_length",
    "max_length",
    "pattern",
    "format",
    "type",
    "min_items",
    "max_items",
    "unique_items",
    "min_properties",
    "max_properties",
    "enum",
    "required",
    "optional",
    "items",
    "embedded_resource",
    "int_or_string",
    "schemaless",
    "at_most_one_of",
    "exactly_one_of",
    "at_least_one_of",
    "preserve_unknown_fields",
];

fn validate_arg(
    arg: &Arg,
    target: Target,
    seen: &mut Seen,
    out: &mut SchemaAttrs,
) -> syn::Result<()> {
    let name = arg.name();
    // Each one-of constraint is a rule of its own, so it may be given several times
    // (controller-gen: repeated `+kubebuilder:validation:AtMostOneOf` markers).
    if !matches!(
        name.as_str(),
        "at_most_one_of" | "exactly_one_of" | "at_least_one_of"
    ) {
        seen.once(arg)?;
    }
    let field_only = |what: &str| {
        syn::Error::new(
            arg.key.span(),
            format!(
                "`{what}` applies to a field, not to a type (controller-gen: a field-only marker)"
            ),
        )
    };
    let type_only = |what: &str| {
        syn::Error::new(
            arg.key.span(),
            format!(
                "`{what}` applies to a struct, not to a field: write it on the struct that has these fields"
            ),
        )
    };
    match name.as_str() {
        "required" | "optional" => {
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
        }
        "schemaless" => {
            if target == Target::Type {
                return Err(field_only(&name));
            }
            arg.bare()?;
            out.schemaless = true;
        }
        "embedded_resource" if target == Target::Type => return Err(field_only(&name)),
        "at_most_one_of" | "exactly_one_of" | "at_least_one_of" if target == Target::Field => {
            return Err(type_only(&name));
        }
        _ => {
            let marker = validation_marker(arg)?;
            out.markers.push(MarkerAt {
                marker,
                span: arg.span(),
            });
        }
    }
    Ok(())
}

/// The `#[validate]` keys that are markers (also valid inside `items(...)`).
fn validation_marker(arg: &Arg) -> syn::Result<Marker> {
    let strings = |arg: &Arg| -> syn::Result<Vec<String>> {
        Ok(arg.strings()?.iter().map(|s| s.value()).collect())
    };
    Ok(match arg.name().as_str() {
        "minimum" => Marker::Minimum(arg.number()?),
        "maximum" => Marker::Maximum(arg.number()?),
        "exclusive_minimum" => Marker::ExclusiveMinimum(arg.flag()?),
        "exclusive_maximum" => Marker::ExclusiveMaximum(arg.flag()?),
        "multiple_of" => Marker::MultipleOf(arg.number()?),
        "min_length" => Marker::MinLength(arg.count()?),
        "max_length" => Marker::MaxLength(arg.count()?),
        "pattern" => Marker::Pattern(crate::regex_check::pattern(&arg.string()?)?),
        "format" => Marker::Format(arg.non_empty_string()?.value()),
        "type" => Marker::Type(crate::checks::one_of(
            &arg.string()?,
            "type",
            &["string", "integer", "number", "boolean", "object", "array"],
        )?),
        "min_items" => Marker::MinItems(arg.count()?),
        "max_items" => Marker::MaxItems(arg.count()?),
        "unique_items" => Marker::UniqueItems(arg.flag()?),
        "min_properties" => Marker::MinProperties(arg.count()?),
        "max_properties" => Marker::MaxProperties(arg.count()?),
        "enum" => Marker::Enum(crate::json::enum_values(arg)?),
        "embedded_resource" => {
            arg.bare()?;
            Marker::EmbeddedResource
        }
        "int_or_string" => {
            arg.bare()?;
            Marker::IntOrString
        }
        "preserve_unknown_fields" => {
            arg.bare()?;
            Marker::PreserveUnknownFields
        }
        "at_most_one_of" => Marker::AtMostOneOf(strings(arg)?),
        "exactly_one_of" => Marker::ExactlyOneOf(strings(arg)?),
        "at_least_one_of" => Marker::AtLeastOneOf(strings(arg)?),
        "items" => {
            let mut seen = Seen::default();
            let mut items = Vec::new();
            for inner in arg.nested()? {
                seen.once(inner)?;
                if matches!(
                    inner.name().as_str(),
                    "required" | "optional" | "schemaless" | "items"
                ) {
                    return Err(syn::Error::new(
                        inner.key.span(),
                        format!("`{}` cannot be used inside `items(...)`", inner.name()),
                    ));
                }
                items.push(MarkerAt {
                    marker: validation_marker(inner)?,
                    span: inner.span(),
                });
            }
            Marker::Items(items)
        }
        _ => return Err(unknown_key(arg, "validate", &VALIDATE_KEYS)),
    })
}

const SCHEMA_KEYS: [&str; 11] = [
    "default",
    "example",
    "title",
    "nullable",
    "list_type",
    "list_map_key",
    "map_type",
    "struct_type",
    "preserve_unknown_fields",
    "external_docs",
    "immutable",
];

fn schema_arg(arg: &Arg) -> syn::Result<Marker> {
    use crate::checks::one_of;
    Ok(match arg.name().as_str() {
        "default" => Marker::Default(json_text(arg)?),
        "example" => Marker::Example(json_text(arg)?),
        "title" => Marker::Title(arg.string()?.value()),
        "nullable" => {
            arg.bare()?;
            Marker::Nullable
        }
        "list_type" => Marker::ListType(one_of(
            &arg.string()?,
            "list_type",
            &["atomic", "set", "map"],
        )?),
        "list_map_key" => Marker::ListMapKeys(arg.strings()?.iter().map(|s| s.value()).collect()),
        "map_type" => Marker::MapType(one_of(&arg.string()?, "map_type", &["atomic", "granular"])?),
        "struct_type" => Marker::StructType(one_of(
            &arg.string()?,
            "struct_type",
            &["atomic", "granular"],
        )?),
        "preserve_unknown_fields" => {
            arg.bare()?;
            Marker::PreserveUnknownFields
        }
        "external_docs" => {
            let (mut url, mut description) = (None, None);
            let mut seen = Seen::default();
            for inner in arg.nested()? {
                seen.once(inner)?;
                match inner.name().as_str() {
                    "url" => url = Some(crate::checks::url(&inner.non_empty_string()?)?),
                    "description" => description = Some(inner.string()?.value()),
                    _ => {
                        return Err(unknown_key(
                            inner,
                            "schema(external_docs)",
                            &["url", "description"],
                        ));
                    }
                }
            }
            if url.is_none() {
                return Err(syn::Error::new(
                    arg.key.span(),
                    "`external_docs` needs `url = \"...\"`",
                ));
            }
            Marker::ExternalDocs { url, description }
        }
        "immutable" => {
            arg.bare()?;
            Marker::Immutable
        }
        _ => return Err(unknown_key(arg, "schema", &SCHEMA_KEYS)),
    })
}

const X_VALIDATION_KEYS: [&str; 6] = [
    "rule",
    "message",
    "message_expression",
    "reason",
    "field_path",
    "optional_old_self",
];

fn x_validation(args: &[Arg], span: Span) -> syn::Result<XValidation> {
    let mut out = XValidation::default();
    let mut rule = None;
    let mut seen = Seen::default();
    for arg in args {
        seen.once(arg)?;
        match arg.name().as_str() {
            "rule" => rule = Some(arg.non_empty_string()?.value()),
            "message" => out.message = Some(arg.string()?.value()),
            "message_expression" => out.message_expression = Some(arg.string()?.value()),
            "reason" => {
                out.reason = Some(crate::checks::one_of(
                    &arg.string()?,
                    "reason",
                    &[
                        "FieldValueRequired",
                        "FieldValueInvalid",
                        "FieldValueForbidden",
                        "FieldValueDuplicate",
                    ],
                )?)
            }
            "field_path" => out.field_path = Some(arg.string()?.value()),
            "optional_old_self" => out.optional_old_self = Some(arg.flag()?),
            _ => return Err(unknown_key(arg, "x_validation", &X_VALIDATION_KEYS)),
        }
    }
    out.rule = rule.ok_or_else(|| {
        syn::Error::new(span, "#[x_validation] needs `rule = \"<CEL expression>\"`")
    })?;
    Ok(out)
}

/// controller-gen refuses `listMapKey` on a list that is not `listType=map`.
fn check_list_map_keys(markers: &[MarkerAt]) -> syn::Result<()> {
    let is_map = markers
        .iter()
        .any(|m| m.marker == Marker::ListType("map".into()));
    match markers
        .iter()
        .find(|m| matches!(m.marker, Marker::ListMapKeys(_)))
    {
        Some(keys) if !is_map => Err(syn::Error::new(
            keys.span,
            "`list_map_key` needs `list_type = \"map\"` on the same field (an associative list)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_struct(source: &str) -> syn::Result<SchemaAttrs> {
        let item: syn::ItemStruct = syn::parse_str(source).unwrap();
        parse(&item.attrs, Target::Type)
    }

    #[test]
    fn one_of_constraints_may_repeat_but_other_keys_may_not() {
        let attrs = parse_struct(
            r#"#[validate(at_most_one_of = ["a", "b"])] #[validate(at_most_one_of = ["c", "d"])] struct S;"#,
        )
        .unwrap();
        assert_eq!(attrs.markers.len(), 2);
        let err = parse_struct(
            "#[validate(min_properties = 1)] #[validate(min_properties = 2)] struct S;",
        )
        .err()
        .unwrap();
        assert_eq!(err.to_string(), "`min_properties` is given twice");
    }
}
