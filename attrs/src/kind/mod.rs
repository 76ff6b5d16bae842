//! The attributes of a kind, written on its `...Spec` struct, one module per family:
//! `#[resource]`, `#[subresource]`, `#[printcolumn]`, the version attributes, `#[metadata]`,
//! `#[selectable_field]` and `#[root]`. This module reads the families and reconciles what they say together
//! (the status type).

mod metadata;
mod printcolumn;
mod resource;
mod root;
mod selectable_field;
mod subresource;
mod versions;

use syn::{Attribute, Ident, LitStr};

pub use metadata::Metadata;
pub use printcolumn::PrinterColumn;
pub use resource::Resource;
pub use subresource::Scale;
pub use versions::{Deprecation, VersionRole, VersionState};

use crate::args::{Arg, args_of, path_name};
use crate::errors::Errors;
use crate::schema::MarkerAt;

/// Everything the kind's attributes say.
#[derive(Clone, Debug)]
pub struct KindAttrs {
    pub resource: Resource,
    pub status: Status,
    pub scale: Option<Scale>,
    pub printer_columns: Vec<PrinterColumn>,
    pub version: VersionState,
    pub selectable_fields: Vec<String>,
    pub metadata: Metadata,
    /// `#[root(x_validation(...))]`: the root object's CEL rules.
    pub root_rules: Vec<MarkerAt>,
}

/// The kind's status.
#[derive(Clone, Debug)]
pub struct Status {
    /// The type of the root's `status` field; `None` for a kind without one, which may still
    /// have the subresource (`#[subresource(status = "()")]`).
    pub ty: Option<syn::Type>,
    /// `#[subresource(status)]`: the kind has the status subresource.
    pub subresource: bool,
}

/// The attribute families this module reads.
pub const ATTRIBUTES: [&str; 10] = [
    "resource",
    "subresource",
    "printcolumn",
    "storage_version",
    "unserved_version",
    "skip_version",
    "deprecated_version",
    "selectable_field",
    "metadata",
    "root",
];

/// Parses the kind attributes on the spec struct `spec` (where a missing
/// `#[resource(group, version, kind)]` is reported). Every error goes to `errors`; `None` when
/// one of them leaves nothing to build the kind from.
pub fn parse(attrs: &[Attribute], spec: &Ident, errors: &Errors) -> Option<KindAttrs> {
    let mut resource = resource::Builder::default();
    let mut subresources = subresource::Builder::default();
    let mut columns = Vec::new();
    let mut version = versions::Builder::default();
    let mut selectable_fields = Vec::new();
    let mut metadata = Metadata::default();
    let mut root_rules = Vec::new();
    for attr in attrs {
        let family = path_name(&attr.meta);
        if !ATTRIBUTES.contains(&family.as_str()) {
            continue;
        }
        let Some(args) = errors.ok(args_of(attr)) else {
            continue;
        };
        match family.as_str() {
            "resource" => resource.add(&args, errors),
            "subresource" => subresources.add(&args, errors),
            "printcolumn" => columns.extend(printcolumn::parse(attr, &args, errors)),
            "selectable_field" => {
                selectable_fields.extend(errors.ok(selectable_field::parse(attr, &args)))
            }
            "metadata" => metadata.add(&args, errors),
            "root" => root::add(&args, &mut root_rules, errors),
            "storage_version" | "unserved_version" | "skip_version" | "deprecated_version" => {
                version.add(&family, attr, &args, errors)
            }
            _ => unreachable!("family is one of ATTRIBUTES"),
        }
    }
    let version = errors.ok(version.finish(spec));
    let status_type = resource.status_type.take();
    let status_required = resource.status_required;
    let resource = resource.finish(spec, errors)?;
    let status = errors.ok(status(&resource, status_type, &subresources))?;
    if let Some(span) = status_required
        && status.ty.is_none()
    {
        errors.push(syn::Error::new(
            span,
            "#[resource(status_required)] lists `status` as required, but the kind has no status: name its type with #[subresource(status)] or #[resource(status = \"Type\")]",
        ));
    }
    Some(KindAttrs {
        resource,
        status,
        scale: subresources.scale,
        printer_columns: columns,
        version: version?,
        selectable_fields,
        metadata,
        root_rules,
    })
}

/// The status type `#[resource(status = ...)]` or `#[subresource(status ...)]` names, or
/// `<Kind>Status` for the subresource alone.
fn status(
    resource: &Resource,
    resource_status: Option<LitStr>,
    subresources: &subresource::Builder,
) -> syn::Result<Status> {
    let subresource = subresources.status;
    let ty = match resource_status.or_else(|| subresources.status_type.clone()) {
        Some(ty) => {
            let parsed = ty.parse::<syn::Type>()?;
            if !is_unit(&parsed) {
                Some(parsed)
            } else if subresource {
                // Go: `+kubebuilder:subresource:status` on a type without a `Status` field.
                None
            } else {
                return Err(syn::Error::new(
                    ty.span(),
                    "`status = \"()\"` is a kind without a status field, which only the status subresource can have: write #[subresource(status = \"()\")]",
                ));
            }
        }
        None if subresource => Some(syn::parse_str::<syn::Type>(&format!(
            "{}Status",
            resource.kind
        ))?),
        None => None,
    };
    Ok(Status { ty, subresource })
}

fn is_unit(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Tuple(tuple) if tuple.elems.is_empty())
}

/// `key = ".a.b"`: a JSON path into the object.
fn json_path(arg: &Arg) -> syn::Result<String> {
    let path = arg.string()?;
    if !path.value().starts_with('.') {
        return Err(syn::Error::new(
            path.span(),
            format!(
                "invalid {} {:?}: a JSON path starts with `.` (e.g. \".spec.replicas\")",
                arg.name(),
                path.value()
            ),
        ));
    }
    Ok(path.value())
}

#[cfg(test)]
mod tests;
