//! Markers as the tokens of `webop::schema::Marker` values: the variant the catalogue names,
//! with the payload the catalogue's `Payload` describes.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;
use webop_markers::Payload;

use super::{MarkerAt, Value};

/// `&[Marker, ...]`: a constant slice of runtime markers.
pub fn slice(markers: &[MarkerAt]) -> TokenStream {
    let items = markers.iter().map(marker);
    quote!(&[#(#items),*])
}

fn marker(marker: &MarkerAt) -> TokenStream {
    let spec = marker.spec();
    let variant = Ident::new(spec.name, Span::call_site());
    let path = quote!(::webop::schema::Marker::#variant);
    match &marker.value {
        Value::Bare => path,
        value => {
            let payload = payload(value, spec.payload, &variant);
            quote!(#path(#payload))
        }
    }
}

/// A payload; a record is the struct named like its marker (`::webop::schema::XValidation`).
fn payload(value: &Value, kind: Payload, variant: &Ident) -> TokenStream {
    match value {
        Value::Bare => quote!(),
        Value::Flag(v) => quote!(#v),
        Value::Number(v) => quote!(#v),
        Value::Count(v) => quote!(#v),
        Value::Text(v) => quote!(#v),
        Value::Texts(values) => quote!(&[#(#values),*]),
        Value::Items(markers) => slice(markers),
        Value::Record(values) => {
            let Payload::Record(fields) = kind else {
                unreachable!("a record value has a record payload")
            };
            let entries = fields.iter().zip(values).map(|(field, value)| {
                let key = Ident::new(field.key, Span::call_site());
                let value = match value {
                    // A required entry is always there: parsing refuses a record without it.
                    Some(value) if field.required => payload(value, field.payload, variant),
                    Some(value) => {
                        let value = payload(value, field.payload, variant);
                        quote!(::core::option::Option::Some(#value))
                    }
                    None => quote!(::core::option::Option::None),
                };
                quote!(#key: #value)
            });
            quote!(::webop::schema::#variant { #(#entries),* })
        }
    }
}
