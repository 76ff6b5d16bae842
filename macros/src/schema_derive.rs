//! `#[derive(Schema)]`: the schema of a struct (named fields or a newtype) or of an enum of unit
//! variants, from the derive's input model (fields, doc comments, serde and schema attributes).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Generics};
use webop_attrs::errors::Errors;
use webop_attrs::input::{Data, Field, Input, Style};
use webop_attrs::schema::{MarkerKind, Presence, Value, slice};
use webop_attrs::serde_attrs::Container;
use webop_attrs::types;

/// `#[derive(Schema)]` on its own.
pub fn derive(ast: &DeriveInput) -> syn::Result<TokenStream> {
    let errors = Errors::new();
    let input = Input::from_ast(ast, &errors);
    let tokens = expand(&input, &errors);
    errors.finish_with(tokens)
}

/// `impl Schema for <type>`; what is wrong goes to `errors`.
pub fn expand(input: &Input, errors: &Errors) -> TokenStream {
    let body = body(input, errors);
    let fields = field_names(input);
    let ident = input.ident;
    let generics = with_schema_bounds(input.generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::webop::schema::Schema for #ident #ty_generics #where_clause {
            fn use_site(defs: &mut ::webop::schema::Definitions) -> ::webop::schema::JSONSchemaProps {
                #body
            }
            #fields
        }
    }
}

/// `FIELD_NAMES` and `OPEN` for a struct with named fields.
fn field_names(input: &Input) -> TokenStream {
    let Data::Struct(Style::Named, fields) = &input.data else {
        return quote!();
    };
    let serialized = fields.iter().filter(|f| !f.serde.skip && !f.serde.flatten);
    let names = serialized.map(|f| &f.name);
    let open = fields.iter().any(|f| !f.serde.skip && f.serde.flatten);
    quote! {
        const FIELD_NAMES: &'static [&'static str] = &[#(#names),*];
        const OPEN: bool = #open;
    }
}

fn with_schema_bounds(generics: &Generics) -> Generics {
    let mut generics = generics.clone();
    for param in generics.type_params_mut() {
        param
            .bounds
            .push(syn::parse_quote!(::webop::schema::Schema));
    }
    generics
}

fn opt_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// The expression that registers the definition of `input` and returns its reference.
fn body(input: &Input, errors: &Errors) -> TokenStream {
    let description = opt_str(&input.doc);
    let type_markers = slice(&input.schema.markers);
    let type_name = input.ident.to_string();
    match &input.data {
        Data::Struct(Style::Named, fields) => {
            let default_presence = input.schema.presence.map(|(p, _)| p);
            let mut calls: Vec<TokenStream> = fields
                .iter()
                .filter_map(|field| field_call(field, &input.serde, default_presence))
                .collect();
            calls.extend(one_of_checks(input, fields, errors));
            quote! {
                defs.named::<Self>(::webop::schema::JSONSchemaProps::default(), |defs| {
                    let mut __schema = ::webop::schema::StructSchema::new(#type_name);
                    #(#calls)*
                    __schema.finish(#description, #type_markers)
                })
            }
        }
        Data::Struct(Style::Tuple, fields) if fields.len() == 1 => {
            let inner = fields[0].ty;
            quote! {
                let inner = <#inner as ::webop::schema::Schema>::use_site(defs);
                let definition = ::webop::schema::newtype_definition(
                    #type_name, ::core::clone::Clone::clone(&inner), #description, #type_markers,
                );
                let reference = ::webop::schema::newtype_reference(&inner, &definition);
                defs.named::<Self>(reference, |_| definition)
            }
        }
        Data::Struct(..) => {
            errors.push(syn::Error::new(
                input.ident.span(),
                "a schema needs named fields or a single newtype field (a Go struct or a named Go type)",
            ));
            quote!()
        }
        Data::Enum(variants) => {
            let data_variant = variants.iter().find(|v| v.style != Style::Unit);
            let not_a_string = match data_variant {
                _ if input.serde.tagged => Some(input.ident.span()),
                Some(variant) => Some(variant.ident.span()),
                None => None,
            };
            if let Some(span) = not_a_string {
                errors.push(data_enum_error(span));
                return quote!();
            }
            let values = variants.iter().filter(|v| !v.serde.skip).map(|v| &v.name);
            quote! {
                defs.named::<Self>(::webop::schema::typed("string", ::core::option::Option::None), |_| {
                    ::webop::schema::enum_definition(#type_name, #description, &[#(#values),*], #type_markers)
                })
            }
        }
        Data::Union(data) => {
            errors.push(syn::Error::new(
                data.union_token.span,
                "unions have no CRD schema",
            ));
            quote!()
        }
    }
}

fn data_enum_error(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        "only enums of unit variants have a CRD schema (a string enum); for alternatives use a struct of optional fields with #[validate(exactly_one_of = [...])]",
    )
}

/// Whether a field without `required`/`optional` may be absent by its defaults alone.
fn has_default(field: &Field, container: &Container) -> bool {
    field.serde.default || container.default || field.schema.default_json().is_some()
}

/// The `__schema.field(...)` / `__schema.flatten(...)` call for one field, or none if serde
/// skips it.
fn field_call(
    field: &Field,
    container: &Container,
    default_presence: Option<Presence>,
) -> Option<TokenStream> {
    if field.serde.skip {
        return None;
    }
    let ty = field.ty;
    let markers = slice(&field.schema.markers);
    if field.serde.flatten {
        return Some(quote_spanned! {ty.span()=>
            __schema.flatten(<#ty as ::webop::schema::Schema>::use_site(defs), #markers);
        });
    }
    let required = match (field.schema.presence.map(|(p, _)| p), default_presence) {
        (Some(Presence::Required), _) => quote!(true),
        (Some(Presence::Optional), _) | (None, Some(Presence::Optional)) => quote!(false),
        _ if has_default(field, container) => quote!(false),
        _ => quote!(!<#ty as ::webop::schema::Schema>::OPTIONAL),
    };
    let schema = if field.schema.schemaless {
        quote!(::webop::schema::JSONSchemaProps::default())
    } else if types::is_bytes(ty) || types::option_inner(ty).is_some_and(types::is_bytes) {
        quote!(<::webop::schema::Bytes as ::webop::schema::Schema>::use_site(defs))
    } else {
        quote_spanned!(ty.span()=> <#ty as ::webop::schema::Schema>::use_site(defs))
    };
    let (name, description) = (&field.name, opt_str(&field.doc));
    Some(quote! {
        __schema.field(#name, #required, #description, #schema, #markers);
    })
}

/// A field named by `at_most_one_of`, `exactly_one_of` or `at_least_one_of` must exist and may
/// not be required (controller-gen: "part of OneOf constraint and must have omitempty tag").
/// Optionality is checked by constant assertions, so type aliases of `Option` count; a struct
/// marked `#[validate(optional)]` makes every field optional that does not say otherwise (Go: a
/// package marked optional, where a field without `omitempty` is optional too).
fn one_of_checks(input: &Input, fields: &[Field], errors: &Errors) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    let fields_optional = matches!(input.schema.presence, Some((Presence::Optional, _)));
    for marker in &input.schema.markers {
        let (
            MarkerKind::AtMostOneOf | MarkerKind::ExactlyOneOf | MarkerKind::AtLeastOneOf,
            Value::Texts(names),
        ) = (marker.kind, &marker.value)
        else {
            continue;
        };
        let key = marker.spec().key;
        for name in names {
            let found = fields
                .iter()
                .rfind(|f| !f.serde.skip && !f.serde.flatten && f.name == *name);
            let Some(field) = found else {
                errors.push(syn::Error::new(
                    marker.span,
                    format!(
                        "{key} names `{name}`, which is not a field of {}",
                        input.ident
                    ),
                ));
                continue;
            };
            match field.schema.presence {
                Some((Presence::Required, presence_span)) => {
                    errors.push(syn::Error::new(
                        presence_span,
                        format!("field {name} is part of {key}, so it cannot be required"),
                    ));
                    continue;
                }
                Some((Presence::Optional, _)) => continue,
                None if fields_optional => continue,
                None if has_default(field, &input.serde) => continue,
                None => {}
            }
            let ty = field.ty;
            let message = format!(
                "field {name} is part of {key}, so it must be optional: make it an Option (Go: omitempty)"
            );
            checks.push(quote_spanned! {ty.span()=>
                const _: () = ::core::assert!(<#ty as ::webop::schema::Schema>::OPTIONAL, #message);
            });
        }
    }
    checks
}
