//! `#[selectable_field(json_path = "...")]`: a field `kubectl get --field-selector` may select
//! on (`+kubebuilder:selectablefield`).

use syn::Attribute;

use super::json_path;
use crate::args::{Arg, unknown_key};

/// The JSON path of one `#[selectable_field]`.
pub(super) fn parse(attr: &Attribute, args: &[Arg]) -> syn::Result<String> {
    let mut path = None;
    for arg in args {
        match arg.name().as_str() {
            "json_path" => path = Some(json_path(arg)?),
            _ => return Err(unknown_key(arg, "selectable_field", &["json_path"])),
        }
    }
    path.ok_or_else(|| {
        syn::Error::new(
            attr.meta.path().segments[0].ident.span(),
            "#[selectable_field] needs `json_path = \".spec.field\"`",
        )
    })
}
