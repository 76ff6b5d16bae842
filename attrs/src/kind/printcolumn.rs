//! `#[printcolumn(...)]`: one column of `kubectl get` (`+kubebuilder:printcolumn`).

use syn::Attribute;

use super::json_path;
use crate::args::{Arg, Seen, unknown_key};
use crate::checks::one_of;
use crate::errors::Errors;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    pub name: String,
    pub type_: String,
    pub json_path: String,
    pub description: Option<String>,
    pub format: Option<String>,
    pub priority: i32,
}

const KEYS: [&str; 6] = [
    "name",
    "type",
    "json_path",
    "description",
    "format",
    "priority",
];

/// One `#[printcolumn]`, every error of it in `errors`.
pub(super) fn parse(attr: &Attribute, args: &[Arg], errors: &Errors) -> Option<PrinterColumn> {
    let (mut name, mut type_, mut path, mut description, mut format, mut priority) =
        (None, None, None, None, None, Some(0));
    let mut seen = Seen::default();
    for arg in args {
        if errors.ok(seen.once(arg)).is_none() {
            continue;
        }
        match arg.name().as_str() {
            "name" => name = errors.ok(arg.non_empty_string()).map(|s| s.value()),
            "type" => {
                type_ = errors.ok(arg.string().and_then(|s| {
                    one_of(
                        &s,
                        "printcolumn type",
                        &["integer", "number", "string", "boolean", "date"],
                    )
                }))
            }
            "json_path" => path = errors.ok(json_path(arg)),
            "description" => description = errors.ok(arg.string()).map(|s| s.value()),
            "format" => format = errors.ok(arg.non_empty_string()).map(|s| s.value()),
            "priority" => {
                priority = errors.ok(arg.count().and_then(|count| {
                    i32::try_from(count).map_err(|_| {
                        syn::Error::new(arg.key.span(), "`priority` must fit in an i32")
                    })
                }))
            }
            _ => errors.push(unknown_key(arg, "printcolumn", &KEYS)),
        }
    }
    let span = attr.meta.path().segments[0].ident.span();
    let given = |key: &str| args.iter().any(|arg| arg.name() == key);
    for key in ["name", "type", "json_path"] {
        if !given(key) {
            errors.push(syn::Error::new(
                span,
                format!("#[printcolumn] needs `{key} = \"...\"`"),
            ));
        }
    }
    Some(PrinterColumn {
        name: name?,
        type_: type_?,
        json_path: path?,
        description,
        format,
        priority: priority?,
    })
}
