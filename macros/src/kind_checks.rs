//! What `#[derive(CustomResource)]` checks beyond single attributes: a spec-less kind's
//! attributes, and the scale subresource's paths against the spec and status types.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Data, DeriveInput, Fields};
use webop_attrs::kind_attrs::KindAttrs;
use webop_attrs::schema_attrs::Target;

/// Whether the kind has a `spec`: a unit struct (`pub struct CronJobSpec;`) is a kind without
/// one (Go: a root type with no `Spec` field).
pub fn has_spec(input: &DeriveInput) -> bool {
    !matches!(&input.data, Data::Struct(data) if matches!(data.fields, Fields::Unit))
}

pub fn check_unit_spec(input: &DeriveInput, attrs: &KindAttrs) -> syn::Result<()> {
    let no_spec = |what: &str| {
        syn::Error::new(
            input.ident.span(),
            format!(
                "{what}, but the kind has no spec: {} is a unit struct",
                input.ident
            ),
        )
    };
    if attrs.spec_required {
        return Err(no_spec(
            "#[resource(spec_required)] lists `spec` as required",
        ));
    }
    if attrs.scale.is_some() {
        return Err(no_spec(
            "the scale subresource needs a spec_path into the spec",
        ));
    }
    let schema = webop_attrs::schema_attrs::parse(&input.attrs, Target::Type)?;
    if let Some(marker) = schema.markers.first() {
        return Err(syn::Error::new(
            marker.span,
            format!(
                "a schema attribute has nothing to apply to: the kind has no spec ({} is a unit struct)",
                input.ident
            ),
        ));
    }
    Ok(())
}

/// The scale subresource's paths must name fields of the spec and status: checked by constant
/// assertions placed at the attribute, since the status type is defined elsewhere.
pub fn scale_checks(input: &DeriveInput, attrs: &KindAttrs) -> syn::Result<TokenStream> {
    let Some(scale) = &attrs.scale else {
        return Ok(quote!());
    };
    let spec = &input.ident;
    let mut checks = Vec::new();
    let paths = [
        ("spec_path", Some(&scale.spec_path), "spec"),
        ("status_path", Some(&scale.status_path), "status"),
        ("selector_path", scale.selector_path.as_ref(), ""),
    ];
    for (key, path, required_root) in paths {
        let Some(path) = path else { continue };
        let mut parts = path.trim_start_matches('.').split('.');
        let root = parts.next().unwrap_or_default();
        let field = parts.next().unwrap_or_default();
        let field = field.split('[').next().unwrap_or_default();
        if (!required_root.is_empty() && root != required_root)
            || !matches!(root, "spec" | "status")
            || field.is_empty()
        {
            let expected = if required_root.is_empty() {
                ".spec.<field> or .status.<field>".to_owned()
            } else {
                format!(".{required_root}.<field>")
            };
            return Err(syn::Error::new(
                scale.span,
                format!("scale {key} {path:?} must be a path {expected}"),
            ));
        }
        let ty = if root == "spec" {
            quote!(#spec)
        } else {
            match &attrs.status {
                Some((status, _)) => quote!(#status),
                None => {
                    return Err(syn::Error::new(
                        scale.span,
                        format!(
                            "scale {key} {path:?} points into the status, but the kind has none: add #[subresource(status)]"
                        ),
                    ));
                }
            }
        };
        let message = format!(
            "scale {key} {path:?}: `{field}` is not a field of {}",
            ty.to_string().replace(' ', "")
        );
        checks.push(quote_spanned! {scale.span=>
            const _: () = ::core::assert!(::webop::schema::has_field::<#ty>(#field), #message);
        });
    }
    Ok(quote!(#(#checks)*))
}
