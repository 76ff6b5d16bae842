//! From `webop_attrs` markers to the tokens of `webop::schema::Marker` values.

use proc_macro2::TokenStream;
use quote::quote;
use webop_attrs::schema_attrs::{Marker, MarkerAt, XValidation};

/// `&[Marker, ...]`: a constant slice of runtime markers.
pub fn slice(markers: &[MarkerAt]) -> TokenStream {
    let items = markers.iter().map(|m| marker(&m.marker));
    quote!(&[#(#items),*])
}

fn opt_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn marker(m: &Marker) -> TokenStream {
    let p = quote!(::webop::schema::Marker);
    match m {
        Marker::Minimum(v) => quote!(#p::Minimum(#v)),
        Marker::Maximum(v) => quote!(#p::Maximum(#v)),
        Marker::ExclusiveMinimum(v) => quote!(#p::ExclusiveMinimum(#v)),
        Marker::ExclusiveMaximum(v) => quote!(#p::ExclusiveMaximum(#v)),
        Marker::MultipleOf(v) => quote!(#p::MultipleOf(#v)),
        Marker::MinLength(v) => quote!(#p::MinLength(#v)),
        Marker::MaxLength(v) => quote!(#p::MaxLength(#v)),
        Marker::Pattern(v) => quote!(#p::Pattern(#v)),
        Marker::Format(v) => quote!(#p::Format(#v)),
        Marker::Type(v) => quote!(#p::Type(#v)),
        Marker::MinItems(v) => quote!(#p::MinItems(#v)),
        Marker::MaxItems(v) => quote!(#p::MaxItems(#v)),
        Marker::UniqueItems(v) => quote!(#p::UniqueItems(#v)),
        Marker::MinProperties(v) => quote!(#p::MinProperties(#v)),
        Marker::MaxProperties(v) => quote!(#p::MaxProperties(#v)),
        Marker::Enum(values) => quote!(#p::Enum(&[#(#values),*])),
        Marker::EmbeddedResource => quote!(#p::EmbeddedResource),
        Marker::IntOrString => quote!(#p::IntOrString),
        Marker::PreserveUnknownFields => quote!(#p::PreserveUnknownFields),
        Marker::AtMostOneOf(fields) => quote!(#p::AtMostOneOf(&[#(#fields),*])),
        Marker::ExactlyOneOf(fields) => quote!(#p::ExactlyOneOf(&[#(#fields),*])),
        Marker::AtLeastOneOf(fields) => quote!(#p::AtLeastOneOf(&[#(#fields),*])),
        Marker::XValidation(rule) => x_validation(rule),
        Marker::Items(inner) => {
            let inner = slice(inner);
            quote!(#p::Items(#inner))
        }
        Marker::Default(json) => quote!(#p::Default(#json)),
        Marker::Example(json) => quote!(#p::Example(#json)),
        Marker::Title(v) => quote!(#p::Title(#v)),
        Marker::Nullable => quote!(#p::Nullable),
        Marker::ListType(v) => quote!(#p::ListType(#v)),
        Marker::ListMapKeys(keys) => quote!(#p::ListMapKeys(&[#(#keys),*])),
        Marker::MapType(v) => quote!(#p::MapType(#v)),
        Marker::StructType(v) => quote!(#p::StructType(#v)),
        Marker::ExternalDocs { url, description } => {
            let (url, description) = (opt_str(url), opt_str(description));
            quote!(#p::ExternalDocs { url: #url, description: #description })
        }
        Marker::Immutable => quote!(#p::Immutable),
    }
}

fn x_validation(rule: &XValidation) -> TokenStream {
    let XValidation {
        rule,
        message,
        message_expression,
        reason,
        field_path,
        optional_old_self,
    } = rule;
    let (message, message_expression, reason, field_path) = (
        opt_str(message),
        opt_str(message_expression),
        opt_str(reason),
        opt_str(field_path),
    );
    let optional_old_self = match optional_old_self {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        ::webop::schema::Marker::XValidation(::webop::schema::XValidation {
            rule: #rule,
            message: #message,
            message_expression: #message_expression,
            reason: #reason,
            field_path: #field_path,
            optional_old_self: #optional_old_self,
        })
    }
}
