//! webop's `Serialize` and `Deserialize` derives: serde's, through a hidden `#[serde(remote)]`
//! copy of the type whose fields carry what Go's JSON does by default and what the schema says:
//! `Option` fields are omitted when `None` (Go's `omitempty` on a pointer; the schema does not
//! allow `null`), and a field with `#[schema(default = ...)]` gets that value when absent, as
//! the API server would store it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Data, DeriveInput, parse_quote};
use webop_attrs::errors::Errors;
use webop_attrs::input::{self, Input};
use webop_attrs::schema::MarkerKind;
use webop_attrs::types;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Serialize,
    Deserialize,
}

fn keep(attr: &Attribute) -> bool {
    attr.path().is_ident("serde") || attr.path().is_ident("cfg")
}

pub fn expand(ast: &DeriveInput, direction: Direction) -> syn::Result<TokenStream> {
    if !ast.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &ast.generics,
            "webop's Serialize/Deserialize derives do not take generic types; derive serde's (`#[derive(serde::Serialize, serde::Deserialize)]`) on this type",
        ));
    }
    let errors = Errors::new();
    let input = Input::from_ast(ast, &errors);
    // The fields of the struct, or of every variant in turn: the remote copy's fields, in order.
    let model_fields: Vec<&input::Field> = match &input.data {
        input::Data::Struct(_, fields) => fields.iter().collect(),
        input::Data::Enum(variants) => variants.iter().flat_map(|v| &v.fields).collect(),
        input::Data::Union(data) => {
            errors.push(syn::Error::new(
                data.union_token.span,
                "unions cannot be serialized by serde",
            ));
            Vec::new()
        }
    };
    let remote_default = match direction {
        Direction::Deserialize => remote_default(&input, &errors),
        Direction::Serialize => quote!(),
    };
    errors.finish()?;
    let ident = input.ident;
    let remote_name = ident.to_string();
    let mut remote = ast.clone();
    remote.ident = format_ident!("__WebopRemote");
    remote.attrs.retain(keep);
    // serde names the hidden copy's type in formats that write type names: give it the user's.
    if !input.serde.renamed {
        remote
            .attrs
            .push(parse_quote!(#[serde(rename = #remote_name)]));
    }
    let mut default_fns = Vec::new();
    let mut fields: Vec<&mut syn::Field> = match &mut remote.data {
        Data::Struct(data) => data.fields.iter_mut().collect(),
        Data::Enum(data) => data
            .variants
            .iter_mut()
            .flat_map(|v| {
                v.attrs.retain(keep);
                v.fields.iter_mut()
            })
            .collect(),
        Data::Union(_) => unreachable!("refused above"),
    };
    for (index, (field, model)) in fields.iter_mut().zip(model_fields).enumerate() {
        let (schema, serde) = (&model.schema, &model.serde);
        field.attrs.retain(keep);
        let ty = field.ty.clone();
        let schema_default = schema.default_json().filter(|_| !serde.default);
        let base64 = !serde.custom_codec
            && (types::is_bytes(&ty) || types::option_inner(&ty).is_some_and(types::is_bytes));
        if base64 {
            // Go's JSON writes []byte as base64, and the schema says so: make serde agree.
            if types::is_bytes(&ty) {
                field
                    .attrs
                    .push(parse_quote!(#[serde(with = "::webop::__private::bytes")]));
            } else if schema_default.is_some() && direction == Direction::Deserialize {
                // The schema's default stands for an absent field (below).
                field
                    .attrs
                    .push(parse_quote!(#[serde(with = "::webop::__private::option_bytes")]));
            } else {
                // `with` turns off serde's "absent Option is None"; `default` restores it.
                field.attrs.push(
                    parse_quote!(#[serde(with = "::webop::__private::option_bytes", default)]),
                );
            }
        }
        match direction {
            Direction::Deserialize => {
                if let Some(json) = schema_default {
                    let function = format_ident!("__webop_default_{index}");
                    let at = format!(
                        "{remote_name}.{}",
                        field
                            .ident
                            .as_ref()
                            .map(ToString::to_string)
                            .unwrap_or(index.to_string())
                    );
                    let path = function.to_string();
                    // A base64 field's default is base64 text, as the API server stores it.
                    let read = if base64 {
                        quote!(::webop::__private::default_bytes)
                    } else {
                        quote!(::webop::__private::default_value)
                    };
                    default_fns.push(quote! {
                        fn #function() -> #ty {
                            #read(#json, #at)
                        }
                    });
                    field.attrs.push(parse_quote!(#[serde(default = #path)]));
                }
            }
            Direction::Serialize => {
                let nullable = schema.has(MarkerKind::Nullable);
                if types::option_inner(&ty).is_some()
                    && !serde.skip_serializing_if
                    && !serde.flatten
                    && !nullable
                {
                    field
                        .attrs
                        .push(parse_quote!(#[serde(skip_serializing_if = "::core::option::Option::is_none")]));
                }
            }
        }
    }
    let derive = match direction {
        Direction::Serialize => quote!(::webop::__private::serde::Serialize),
        Direction::Deserialize => quote!(::webop::__private::serde::Deserialize),
    };
    let implementation = match direction {
        Direction::Serialize => quote! {
            #[automatically_derived]
            impl ::webop::__private::serde::Serialize for #ident {
                fn serialize<__S: ::webop::__private::serde::Serializer>(
                    &self,
                    serializer: __S,
                ) -> ::core::result::Result<__S::Ok, __S::Error> {
                    __WebopRemote::serialize(self, serializer)
                }
            }
        },
        Direction::Deserialize => quote! {
            #[automatically_derived]
            impl<'de> ::webop::__private::serde::Deserialize<'de> for #ident {
                fn deserialize<__D: ::webop::__private::serde::Deserializer<'de>>(
                    deserializer: __D,
                ) -> ::core::result::Result<Self, __D::Error> {
                    __WebopRemote::deserialize(deserializer)
                }
            }
        },
    };
    Ok(quote! {
        const _: () = {
            #[derive(#derive)]
            #[serde(remote = #remote_name, crate = "::webop::__private::serde")]
            #[allow(dead_code, non_camel_case_types, clippy::all)]
            #remote
            #(#default_fns)*
            #remote_default
            #implementation
        };
    })
}

/// A container `#[serde(default)]` takes missing fields from the struct's `Default`; serde's
/// remote derive asks the hidden copy for it, so the copy's `Default` is the struct's.
fn remote_default(input: &Input, errors: &Errors) -> TokenStream {
    let input::Data::Struct(_, fields) = &input.data else {
        return quote!();
    };
    if !input.serde.default {
        return quote!();
    }
    let ident = input.ident;
    if input.serde.default_path {
        errors.push(syn::Error::new(
            ident.span(),
            "webop's Deserialize takes a struct's defaults from its `Default` impl: write `#[serde(default)]` and implement `Default` instead of `#[serde(default = \"...\")]`",
        ));
        return quote!();
    }
    let members = fields.iter().map(|field| &field.member);
    let values = members.clone();
    quote! {
        #[automatically_derived]
        impl ::core::default::Default for __WebopRemote {
            fn default() -> Self {
                let value = <#ident as ::core::default::Default>::default();
                __WebopRemote { #(#members: value.#values),* }
            }
        }
    }
}
