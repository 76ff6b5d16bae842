//! The input of a derive, read once (serde_derive's `internals::ast`): the container and its
//! variants and fields, each with its serialized name, type, serde attributes, schema attributes
//! and doc comment. Every webop derive builds one and every expansion reads it; building it
//! collects the errors of every attribute, so a user sees them all in one compile.

use syn::{Attribute, DeriveInput, Generics, Ident, Member, Type, Visibility};

use crate::doc;
use crate::errors::Errors;
use crate::schema::{self, Place, SchemaAttrs};
use crate::serde_attrs::{self, RenameRule};

/// A struct or enum with everything its attributes say.
pub struct Input<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub attrs: &'a [Attribute],
    pub generics: &'a Generics,
    pub serde: serde_attrs::Container,
    /// The schema attributes of the type itself.
    pub schema: SchemaAttrs,
    pub doc: Option<String>,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    Union(&'a syn::DataUnion),
}

/// The shape of a struct or variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, b: B }`
    Named,
    /// `(A, B)`; a single field is a newtype.
    Tuple,
    Unit,
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    /// `self.<member>`: the field's name or index.
    pub member: Member,
    pub ty: &'a Type,
    /// The name serde writes it under (for a tuple field, its index).
    pub name: String,
    pub serde: serde_attrs::Field,
    pub schema: SchemaAttrs,
    pub doc: Option<String>,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The name serde writes it under.
    pub name: String,
    pub serde: serde_attrs::Field,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

impl<'a> Input<'a> {
    /// Reads `input`; every error goes to `errors` and reading goes on, so that one compile
    /// reports every bad attribute.
    pub fn from_ast(input: &'a DeriveInput, errors: &Errors) -> Self {
        let serde = errors
            .ok(serde_attrs::container(&input.attrs))
            .unwrap_or_default();
        let schema = schema::parse(&input.attrs, Place::Type, errors);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = fields(&data.fields, &serde, Fit::Check, errors);
                // A newtype's markers are the type's, and fit its one field.
                if let (Style::Tuple, [inner]) = (style, fields.as_slice()) {
                    schema::check_fit(inner.ty, &schema, errors);
                }
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => Data::Enum(
                data.variants
                    .iter()
                    .map(|variant| {
                        let variant_serde = errors
                            .ok(serde_attrs::field(&variant.attrs))
                            .unwrap_or_default();
                        let name = serialized_name(
                            variant.ident.to_string(),
                            &variant_serde,
                            serde.rename_all,
                            RenameRule::apply_to_variant,
                        );
                        let (style, fields) = fields(&variant.fields, &serde, Fit::Skip, errors);
                        Variant {
                            ident: &variant.ident,
                            name,
                            serde: variant_serde,
                            style,
                            fields,
                        }
                    })
                    .collect(),
            ),
            syn::Data::Union(data) => Data::Union(data),
        };
        Input {
            ident: &input.ident,
            vis: &input.vis,
            attrs: &input.attrs,
            generics: &input.generics,
            serde,
            schema,
            doc: doc::description(&input.attrs),
            data,
        }
    }

    /// The fields of a struct; none for an enum or a union.
    pub fn fields(&self) -> &[Field<'a>] {
        match &self.data {
            Data::Struct(_, fields) => fields,
            _ => &[],
        }
    }
}

/// Whether the markers of named fields are checked against their types: a struct's are, since
/// they get a schema; an enum's variants' are not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    Check,
    Skip,
}

fn fields<'a>(
    fields: &'a syn::Fields,
    container: &serde_attrs::Container,
    fit: Fit,
    errors: &Errors,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let serde = errors
                .ok(serde_attrs::field(&field.attrs))
                .unwrap_or_default();
            let (member, own_name) = match &field.ident {
                Some(ident) => (
                    Member::Named(ident.clone()),
                    syn::ext::IdentExt::unraw(ident).to_string(),
                ),
                None => (Member::Unnamed(index.into()), index.to_string()),
            };
            let schema = schema::parse(&field.attrs, Place::Field, errors);
            let gets_schema = !serde.skip && !serde.flatten && !schema.schemaless;
            if fit == Fit::Check && style == Style::Named && gets_schema {
                schema::check_fit(&field.ty, &schema, errors);
            }
            Field {
                original: field,
                member,
                ty: &field.ty,
                name: serialized_name(
                    own_name,
                    &serde,
                    container.rename_all,
                    RenameRule::apply_to_field,
                ),
                schema,
                doc: doc::description(&field.attrs),
                serde,
            }
        })
        .collect();
    (style, fields)
}

/// serde's rule for the name a field or variant is written under: its own `rename`, else the
/// container's `rename_all` applied to its name, else its name.
fn serialized_name(
    own: String,
    serde: &serde_attrs::Field,
    rename_all: Option<RenameRule>,
    apply: fn(RenameRule, &str) -> String,
) -> String {
    match (&serde.rename, rename_all) {
        (Some(rename), _) => rename.clone(),
        (None, Some(rule)) => apply(rule, &own),
        (None, None) => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str) -> Vec<String> {
        let input: DeriveInput = syn::parse_str(source).unwrap();
        let errors = Errors::new();
        let model = Input::from_ast(&input, &errors);
        errors.finish().unwrap();
        match &model.data {
            Data::Struct(_, fields) => fields.iter().map(|f| f.name.clone()).collect(),
            Data::Enum(variants) => variants.iter().map(|v| v.name.clone()).collect(),
            Data::Union(_) => Vec::new(),
        }
    }

    #[test]
    fn serialized_names_follow_serde() {
        assert_eq!(
            names(
                r#"#[serde(rename_all = "camelCase")]
                   struct S { min_ready: i32, #[serde(rename = "x")] y: i32, r#type: String }"#
            ),
            ["minReady", "x", "type"]
        );
        assert_eq!(
            names(
                r#"#[serde(rename_all = "snake_case")] enum E { NotReady, #[serde(rename = "up")] Up }"#
            ),
            ["not_ready", "up"]
        );
    }

    #[test]
    fn every_bad_attribute_of_every_field_is_collected() {
        let input: DeriveInput = syn::parse_str(
            r#"struct S {
                #[validate(maximun = 3)] a: i32,
                #[schema(title = 1)] b: i32,
                #[validate(min_length = 1)] c: i32,
                #[serde(skip)] #[validate(min_length = 1)] d: i32,
            }"#,
        )
        .unwrap();
        let errors = Errors::new();
        Input::from_ast(&input, &errors);
        let messages: Vec<String> = errors
            .finish()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            messages,
            [
                "unknown key `maximun` in #[validate]; did you mean `maximum`?",
                "`title` expects a string literal",
                "`min_length` does not apply to this field: its type is an integer",
            ],
            "in source order, the skipped field unchecked"
        );
    }
}
