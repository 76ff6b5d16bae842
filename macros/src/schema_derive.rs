//! `#[derive(Schema)]`: the schema of a struct (named fields or a newtype) or of an enum of unit
//! variants, from its fields, doc comments, serde attributes and schema attributes.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Data, DeriveInput, Fields, Generics, Type};
use webop_attrs::doc;
use webop_attrs::errors::Errors;
use webop_attrs::schema::{self, MarkerAt, MarkerKind, Place, Presence, SchemaAttrs, Value, slice};
use webop_attrs::serde_attrs::{self, Container};
use webop_attrs::types;

/// The schema attributes of a field or type, every error combined.
pub(crate) fn schema_attrs(attrs: &[Attribute], place: Place) -> syn::Result<SchemaAttrs> {
    let errors = Errors::new();
    let parsed = schema::parse(attrs, place, &errors);
    errors.finish_with(parsed)
}

/// Refuses, at the attribute, markers that cannot apply to a std type.
fn check_markers(ty: &Type, attrs: &SchemaAttrs) -> syn::Result<()> {
    let errors = Errors::new();
    schema::check_fit(ty, attrs, &errors);
    errors.finish()
}

/// `impl Schema for <type>`.
pub fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let body = body(input)?;
    let fields = field_names(input)?;
    let ident = &input.ident;
    let generics = with_schema_bounds(&input.generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics ::webop::schema::Schema for #ident #ty_generics #where_clause {
            fn use_site(defs: &mut ::webop::schema::Definitions) -> ::webop::schema::JSONSchemaProps {
                #body
            }
            #fields
        }
    })
}

/// `FIELD_NAMES` and `OPEN` for a struct with named fields.
fn field_names(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Ok(quote!());
    };
    let Fields::Named(fields) = &data.fields else {
        return Ok(quote!());
    };
    let container = serde_attrs::container(&input.attrs)?;
    let mut names = Vec::new();
    let mut open = false;
    for field in &fields.named {
        let serde = serde_attrs::field(&field.attrs)?;
        if serde.skip {
            continue;
        }
        if serde.flatten {
            open = true;
            continue;
        }
        names.push(serialized_name(field, &serde, &container));
    }
    Ok(quote! {
        const FIELD_NAMES: &'static [&'static str] = &[#(#names),*];
        const OPEN: bool = #open;
    })
}

fn serialized_name(
    field: &syn::Field,
    serde: &serde_attrs::Field,
    container: &Container,
) -> String {
    let ident = field.ident.as_ref().expect("named field");
    let raw = syn::ext::IdentExt::unraw(ident).to_string();
    serde
        .rename
        .clone()
        .unwrap_or_else(|| match container.rename_all {
            Some(rule) => rule.apply_to_field(&raw),
            None => raw,
        })
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

fn opt_str(value: Option<String>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// The expression that registers the definition of `input` and returns its reference.
fn body(input: &DeriveInput) -> syn::Result<TokenStream> {
    let container = serde_attrs::container(&input.attrs)?;
    let type_attrs = schema_attrs(&input.attrs, Place::Type)?;
    let description = opt_str(doc::description(&input.attrs));
    let type_markers = slice(&type_attrs.markers);
    let type_name = input.ident.to_string();
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => {
                let mut calls = Vec::new();
                let default_presence = type_attrs.presence.map(|(p, _)| p);
                for field in &fields.named {
                    if let Some(call) = field_call(field, &container, default_presence)? {
                        calls.push(call);
                    }
                }
                calls.extend(one_of_checks(&type_attrs, fields, &container, &type_name)?);
                Ok(quote! {
                    defs.named::<Self>(::webop::schema::JSONSchemaProps::default(), |defs| {
                        let mut __schema = ::webop::schema::StructSchema::new(#type_name);
                        #(#calls)*
                        __schema.finish(#description, #type_markers)
                    })
                })
            }
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                let inner = &fields.unnamed[0].ty;
                check_markers(inner, &type_attrs)?;
                Ok(quote! {
                    let inner = <#inner as ::webop::schema::Schema>::use_site(defs);
                    let definition = ::webop::schema::newtype_definition(
                        #type_name, ::core::clone::Clone::clone(&inner), #description, #type_markers,
                    );
                    let reference = ::webop::schema::newtype_reference(&inner, &definition);
                    defs.named::<Self>(reference, |_| definition)
                })
            }
            _ => Err(syn::Error::new(
                input.ident.span(),
                "a schema needs named fields or a single newtype field (a Go struct or a named Go type)",
            )),
        },
        Data::Enum(data) => {
            if container.tagged {
                return Err(data_enum_error(input.ident.span()));
            }
            let mut values = Vec::new();
            for variant in &data.variants {
                if !matches!(variant.fields, Fields::Unit) {
                    return Err(data_enum_error(variant.ident.span()));
                }
                let serde = serde_attrs::field(&variant.attrs)?;
                if serde.skip {
                    continue;
                }
                let name = variant.ident.to_string();
                values.push(serde.rename.unwrap_or_else(|| match container.rename_all {
                    Some(rule) => rule.apply_to_variant(&name),
                    None => name,
                }));
            }
            Ok(quote! {
                defs.named::<Self>(::webop::schema::typed("string", ::core::option::Option::None), |_| {
                    ::webop::schema::enum_definition(#type_name, #description, &[#(#values),*], #type_markers)
                })
            })
        }
        Data::Union(data) => Err(syn::Error::new(
            data.union_token.span,
            "unions have no CRD schema",
        )),
    }
}

fn data_enum_error(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        "only enums of unit variants have a CRD schema (a string enum); for alternatives use a struct of optional fields with #[validate(exactly_one_of = [...])]",
    )
}

/// The `__schema.field(...)` / `__schema.flatten(...)` call for one field, or none if serde
/// skips it.
fn field_call(
    field: &syn::Field,
    container: &Container,
    default_presence: Option<Presence>,
) -> syn::Result<Option<TokenStream>> {
    let serde = serde_attrs::field(&field.attrs)?;
    let attrs = schema_attrs(&field.attrs, Place::Field)?;
    if serde.skip {
        return Ok(None);
    }
    let ty = &field.ty;
    let markers = slice(&attrs.markers);
    if serde.flatten {
        return Ok(Some(quote_spanned! {ty.span()=>
            __schema.flatten(<#ty as ::webop::schema::Schema>::use_site(defs), #markers);
        }));
    }
    if !attrs.schemaless {
        check_markers(ty, &attrs)?;
    }
    let ident = field.ident.as_ref().expect("named field");
    let raw = syn::ext::IdentExt::unraw(ident).to_string();
    let name = serde
        .rename
        .clone()
        .unwrap_or_else(|| match container.rename_all {
            Some(rule) => rule.apply_to_field(&raw),
            None => raw,
        });
    let has_default = serde.default || container.default || attrs.default_json().is_some();
    let required = match (attrs.presence.map(|(p, _)| p), default_presence) {
        (Some(Presence::Required), _) => quote!(true),
        (Some(Presence::Optional), _) | (None, Some(Presence::Optional)) => quote!(false),
        _ if has_default => quote!(false),
        _ => quote!(!<#ty as ::webop::schema::Schema>::OPTIONAL),
    };
    let schema = if attrs.schemaless {
        quote!(::webop::schema::JSONSchemaProps::default())
    } else if types::is_bytes(ty) || types::option_inner(ty).is_some_and(types::is_bytes) {
        quote!(<::webop::schema::Bytes as ::webop::schema::Schema>::use_site(defs))
    } else {
        quote_spanned!(ty.span()=> <#ty as ::webop::schema::Schema>::use_site(defs))
    };
    let description = opt_str(doc::description(&field.attrs));
    Ok(Some(quote! {
        __schema.field(#name, #required, #description, #schema, #markers);
    }))
}

/// A field named by `at_most_one_of`, `exactly_one_of` or `at_least_one_of` must exist and may
/// not be required (controller-gen: "part of OneOf constraint and must have omitempty tag").
/// Optionality is checked by constant assertions, so type aliases of `Option` count.
fn one_of_checks(
    type_attrs: &SchemaAttrs,
    fields: &syn::FieldsNamed,
    container: &Container,
    type_name: &str,
) -> syn::Result<Vec<TokenStream>> {
    let mut checks = Vec::new();
    for MarkerAt { kind, value, span } in &type_attrs.markers {
        let (
            MarkerKind::AtMostOneOf | MarkerKind::ExactlyOneOf | MarkerKind::AtLeastOneOf,
            Value::Texts(names),
        ) = (kind, value)
        else {
            continue;
        };
        let key = kind.spec().key;
        for name in names {
            let mut found = None;
            for field in &fields.named {
                let serde = serde_attrs::field(&field.attrs)?;
                if !serde.skip
                    && !serde.flatten
                    && serialized_name(field, &serde, container) == *name
                {
                    found = Some((field, serde));
                }
            }
            let Some((field, serde)) = found else {
                return Err(syn::Error::new(
                    *span,
                    format!("{key} names `{name}`, which is not a field of {type_name}"),
                ));
            };
            let attrs = schema_attrs(&field.attrs, Place::Field)?;
            match attrs.presence {
                Some((Presence::Required, presence_span)) => {
                    return Err(syn::Error::new(
                        presence_span,
                        format!("field {name} is part of {key}, so it cannot be required"),
                    ));
                }
                Some((Presence::Optional, _)) => continue,
                None if serde.default || container.default || attrs.default_json().is_some() => {
                    continue;
                }
                None => {}
            }
            let ty = &field.ty;
            let message = format!(
                "field {name} is part of {key}, so it must be optional: make it an Option (Go: omitempty)"
            );
            checks.push(quote_spanned! {ty.span()=>
                const _: () = ::core::assert!(<#ty as ::webop::schema::Schema>::OPTIONAL, #message);
            });
        }
    }
    Ok(checks)
}
