//! What `#[derive(CustomResource)]` checks beyond single attributes: a spec-less kind's
//! attributes, and the scale subresource's paths against the spec and status types.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use webop_attrs::errors::Errors;
use webop_attrs::input::{Data, Input, Style};
use webop_attrs::kind::KindAttrs;

/// Whether the kind has a `spec`: a unit struct (`pub struct CronJobSpec;`) is a kind without
/// one (Go: a root type with no `Spec` field).
pub fn has_spec(input: &Input) -> bool {
    !matches!(input.data, Data::Struct(Style::Unit, _))
}

/// What a kind without a spec cannot have.
pub fn check_unit_spec(input: &Input, attrs: &KindAttrs, errors: &Errors) {
    let no_spec = |what: &str| {
        syn::Error::new(
            input.ident.span(),
            format!(
                "{what}, but the kind has no spec: {} is a unit struct",
                input.ident
            ),
        )
    };
    if attrs.resource.flatten_spec {
        errors.push(no_spec(
            "#[resource(flatten_spec)] puts the spec's fields at the root",
        ));
    }
    if attrs.resource.spec_required {
        errors.push(no_spec(
            "#[resource(spec_required)] lists `spec` as required",
        ));
    }
    if attrs.scale.is_some() {
        errors.push(no_spec(
            "the scale subresource needs a spec_path into the spec",
        ));
    }
    if let Some(marker) = input.schema.markers.first() {
        errors.push(syn::Error::new(
            marker.span,
            format!(
                "a schema attribute has nothing to apply to: the kind has no spec ({} is a unit struct)",
                input.ident
            ),
        ));
    }
}

/// With `#[resource(flatten_spec)]`, the spec's fields share the root with `apiVersion`, `kind`,
/// `metadata` and `status`: a field by one of those names is a compile error at the spec.
pub fn flattened_spec_checks(input: &Input, attrs: &KindAttrs) -> TokenStream {
    if !attrs.resource.flatten_spec {
        return quote!();
    }
    let spec = input.ident;
    let checks = ["apiVersion", "kind", "metadata", "status"].map(|name| {
        let message = format!(
            "#[resource(flatten_spec)]: {spec} has a field `{name}`, which the root of the object already has"
        );
        quote_spanned! {spec.span()=>
            const _: () = ::core::assert!(!::webop::schema::declares_field::<#spec>(#name), #message);
        }
    });
    quote!(#(#checks)*)
}

/// Which of the kind's types a scale path points into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Spec,
    Status,
}

/// The side and first field of a scale path (`.spec.replicas` → spec, `replicas`; with
/// flatten_spec `.replicas` → spec, `replicas`), or `None` for a path into neither.
fn scale_path_field(path: &str, flatten_spec: bool) -> Option<(Side, &str)> {
    let mut parts = path.trim_start_matches('.').split('.');
    let first = parts.next().unwrap_or_default();
    let (side, field) = match first {
        "status" => (Side::Status, parts.next().unwrap_or_default()),
        "spec" if !flatten_spec => (Side::Spec, parts.next().unwrap_or_default()),
        _ if flatten_spec => (Side::Spec, first),
        _ => return None,
    };
    Some((side, field.split('[').next().unwrap_or_default()))
}

/// The scale subresource's paths must name fields of the spec and status: checked by constant
/// assertions placed at the attribute, since the status type is defined elsewhere.
pub fn scale_checks(input: &Input, attrs: &KindAttrs, errors: &Errors) -> TokenStream {
    let Some(scale) = &attrs.scale else {
        return quote!();
    };
    let spec = input.ident;
    let mut checks = Vec::new();
    let paths = [
        ("spec_path", Some(&scale.spec_path), Some(Side::Spec)),
        ("status_path", Some(&scale.status_path), Some(Side::Status)),
        ("selector_path", scale.selector_path.as_ref(), None),
    ];
    for (key, path, required_side) in paths {
        let Some(path) = path else { continue };
        let Some((side, field)) = scale_path_field(path, attrs.resource.flatten_spec)
            .filter(|(side, field)| required_side.is_none_or(|r| r == *side) && !field.is_empty())
        else {
            // With flatten_spec, a spec field is `.field`, at the root, rather than `.spec.field`.
            let spec_form = if attrs.resource.flatten_spec {
                ".<field>"
            } else {
                ".spec.<field>"
            };
            let expected = match required_side {
                Some(Side::Status) => ".status.<field>".to_owned(),
                Some(Side::Spec) => spec_form.to_owned(),
                None => format!("{spec_form} or .status.<field>"),
            };
            errors.push(syn::Error::new(
                scale.span,
                format!("scale {key} {path:?} must be a path {expected}"),
            ));
            continue;
        };
        let ty = if side == Side::Spec {
            quote!(#spec)
        } else {
            match &attrs.status.ty {
                Some(status) => quote!(#status),
                None => {
                    errors.push(syn::Error::new(
                        scale.span,
                        format!(
                            "scale {key} {path:?} points into the status, but the kind has none: add #[subresource(status)]"
                        ),
                    ));
                    continue;
                }
            }
        };
        let hint = if attrs.resource.flatten_spec && field == "spec" {
            " (with #[resource(flatten_spec)] the spec's fields are at the root: `.<field>`)"
        } else {
            ""
        };
        let message = format!(
            "scale {key} {path:?}: `{field}` is not a field of {}{hint}",
            ty.to_string().replace(' ', "")
        );
        checks.push(quote_spanned! {scale.span=>
            const _: () = ::core::assert!(::webop::schema::has_field::<#ty>(#field), #message);
        });
    }
    quote!(#(#checks)*)
}
