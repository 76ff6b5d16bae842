//! The attributes of a kind, written on its `...Spec` struct: `#[resource]`, `#[subresource]`,
//! `#[printcolumn]`, `#[storage_version]`, `#[unserved_version]`, `#[skip_version]`,
//! `#[deprecated_version]`, `#[selectable_field]`, `#[metadata]`.

use proc_macro2::Span;
use syn::{Attribute, LitStr};

use crate::args::{Arg, Seen, args_of, path_name, unknown_key};
use crate::checks::one_of;
use crate::names;

/// Everything the kind's attributes say.
#[derive(Clone, Debug)]
pub struct KindAttrs {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub kind_span: Span,
    pub namespaced: bool,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    /// The status type and whether it has the status subresource. `None` for a kind without a
    /// status field, which may still have the subresource (`#[subresource(status = "()")]`).
    pub status: Option<(syn::Type, bool)>,
    /// Whether the kind has the status subresource.
    pub status_subresource: bool,
    pub doc: Option<String>,
    pub spec_required: bool,
    /// `#[resource(flatten_spec)]`: the spec's fields sit at the root of the object, beside
    /// `metadata` (Go: a root type with fields of its own and no `Spec`, like `ConfigMap`).
    pub flatten_spec: bool,
    /// `#[resource(skip)]`: no CRD for this kind (controller-gen's `+kubebuilder:skip`).
    pub skip_crd: bool,
    pub scale: Option<Scale>,
    pub printer_columns: Vec<PrinterColumn>,
    pub storage: bool,
    pub served: bool,
    pub skip: bool,
    pub deprecated: Option<Option<String>>,
    pub selectable_fields: Vec<String>,
    pub annotations: Vec<String>,
    pub labels: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Scale {
    pub spec_path: String,
    pub status_path: String,
    pub selector_path: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    pub name: String,
    pub type_: String,
    pub json_path: String,
    pub description: Option<String>,
    pub format: Option<String>,
    pub priority: i32,
}

/// The attribute families this module reads.
pub const ATTRIBUTES: [&str; 9] = [
    "resource",
    "subresource",
    "printcolumn",
    "storage_version",
    "unserved_version",
    "skip_version",
    "deprecated_version",
    "selectable_field",
    "metadata",
];

#[derive(Default)]
struct Builder {
    group: Option<LitStr>,
    version: Option<LitStr>,
    kind: Option<LitStr>,
    scope: Option<String>,
    plural: Option<LitStr>,
    singular: Option<LitStr>,
    short_names: Vec<String>,
    categories: Vec<String>,
    status_type: Option<LitStr>,
    status_subresource: bool,
    doc: Option<String>,
    spec_required: bool,
    flatten_spec: Option<Span>,
    skip_crd: bool,
}

/// Parses the kind attributes on the spec struct `spec_ident` (where a missing
/// `#[resource(group, version, kind)]` is reported).
pub fn parse(attrs: &[Attribute], spec_ident: &syn::Ident) -> syn::Result<KindAttrs> {
    let mut b = Builder::default();
    let mut resource_seen = Seen::default();
    let mut subresource_seen = Seen::default();
    let mut columns = Vec::new();
    let mut flags = Seen::default();
    let (mut storage, mut unserved, mut skip, mut deprecated) = (false, false, false, None);
    let mut scale = None;
    let mut selectable = Vec::new();
    let (mut annotations, mut labels) = (Vec::new(), Vec::new());

    for attr in attrs {
        let family = path_name(&attr.meta);
        if !ATTRIBUTES.contains(&family.as_str()) {
            continue;
        }
        let args = args_of(attr)?;
        match family.as_str() {
            "resource" => {
                for arg in &args {
                    resource_seen.once(arg)?;
                    resource_arg(arg, &mut b)?;
                }
            }
            "subresource" => {
                for arg in &args {
                    subresource_seen.once(arg)?;
                    match arg.name().as_str() {
                        "status" => {
                            b.status_subresource = true;
                            if let crate::args::ArgValue::Value(_) = arg.value {
                                b.status_type = Some(arg.non_empty_string()?);
                            }
                        }
                        "scale" => scale = Some(scale_arg(arg)?),
                        _ => return Err(unknown_key(arg, "subresource", &["status", "scale"])),
                    }
                }
            }
            "printcolumn" => columns.push(printcolumn(attr, &args)?),
            "storage_version" | "unserved_version" | "skip_version" => {
                let name = attr.meta.path().segments.last().map(|s| s.ident.clone());
                if let Some(first) = args.first() {
                    return Err(syn::Error::new(
                        first.key.span(),
                        format!("#[{family}] takes no arguments"),
                    ));
                }
                let ident = name.expect("attribute path has a segment");
                flags.once(&Arg {
                    key: ident,
                    value: crate::args::ArgValue::Flag,
                })?;
                match family.as_str() {
                    "storage_version" => storage = true,
                    "unserved_version" => unserved = true,
                    _ => skip = true,
                }
            }
            "deprecated_version" => {
                let mut warning = None;
                for arg in &args {
                    match arg.name().as_str() {
                        "warning" => warning = Some(arg.string()?.value()),
                        _ => return Err(unknown_key(arg, "deprecated_version", &["warning"])),
                    }
                }
                deprecated = Some(warning);
            }
            "selectable_field" => {
                let mut path = None;
                for arg in &args {
                    match arg.name().as_str() {
                        "json_path" => path = Some(json_path(arg)?),
                        _ => return Err(unknown_key(arg, "selectable_field", &["json_path"])),
                    }
                }
                selectable.push(path.ok_or_else(|| {
                    syn::Error::new(
                        attr.meta.path().segments[0].ident.span(),
                        "#[selectable_field] needs `json_path = \".spec.field\"`",
                    )
                })?);
            }
            "metadata" => {
                for arg in &args {
                    let target = match arg.name().as_str() {
                        "annotations" => &mut annotations,
                        "labels" => &mut labels,
                        _ => return Err(unknown_key(arg, "metadata", &["annotations", "labels"])),
                    };
                    for entry in arg.strings()? {
                        if !entry.value().contains('=') {
                            return Err(syn::Error::new(
                                entry.span(),
                                format!(
                                    "metadata entry {:?} is not in 'key=value' format",
                                    entry.value()
                                ),
                            ));
                        }
                        target.push(entry.value());
                    }
                }
            }
            _ => unreachable!("family is one of ATTRIBUTES"),
        }
    }
    if storage && skip {
        return Err(syn::Error::new(
            spec_ident.span(),
            "a version cannot be both #[storage_version] and #[skip_version]",
        ));
    }

    let missing = |what: &str| {
        syn::Error::new(
            spec_ident.span(),
            format!(
                "#[derive(CustomResource)] needs #[resource({what} = \"...\")] (for example #[resource(group = \"app.example.com\", version = \"v1\", kind = \"WebApp\")])"
            ),
        )
    };
    let group = b.group.ok_or_else(|| missing("group"))?;
    let version = b.version.ok_or_else(|| missing("version"))?;
    let kind = b.kind.ok_or_else(|| missing("kind"))?;
    names::check_group(&group)?;
    names::check_version(&version)?;
    names::check_kind(&kind)?;

    if let Some(span) = b.flatten_spec
        && b.spec_required
    {
        return Err(syn::Error::new(
            span,
            "#[resource(flatten_spec)] puts the spec's fields at the root, so there is no `spec` for #[resource(spec_required)] to require: mark the fields required instead",
        ));
    }

    let kind_name = kind.value();
    let status = match (b.status_type, b.status_subresource) {
        (Some(ty), subresource) => {
            let parsed = ty.parse::<syn::Type>()?;
            if is_unit(&parsed) {
                // Go: `+kubebuilder:subresource:status` on a type without a `Status` field.
                if !subresource {
                    return Err(syn::Error::new(
                        ty.span(),
                        "`status = \"()\"` is a kind without a status field, which only the status subresource can have: write #[subresource(status = \"()\")]",
                    ));
                }
                None
            } else {
                Some((parsed, subresource))
            }
        }
        (None, true) => Some((
            syn::parse_str::<syn::Type>(&format!("{kind_name}Status"))?,
            true,
        )),
        (None, false) => None,
    };
    Ok(KindAttrs {
        group: group.value(),
        version: version.value(),
        kind_span: kind.span(),
        namespaced: b.scope.as_deref() != Some("Cluster"),
        plural: b
            .plural
            .map(|p| p.value())
            .unwrap_or_else(|| names::crd_default_plural(&kind_name)),
        singular: b
            .singular
            .map(|s| s.value())
            .unwrap_or_else(|| names::singular(&kind_name)),
        kind: kind_name,
        short_names: b.short_names,
        categories: b.categories,
        status,
        status_subresource: b.status_subresource,
        doc: b.doc,
        spec_required: b.spec_required,
        flatten_spec: b.flatten_spec.is_some(),
        skip_crd: b.skip_crd,
        scale,
        printer_columns: columns,
        storage,
        served: !unserved,
        skip,
        deprecated,
        selectable_fields: selectable,
        annotations,
        labels,
    })
}

fn is_unit(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Tuple(tuple) if tuple.elems.is_empty())
}

const RESOURCE_KEYS: [&str; 13] = [
    "group",
    "version",
    "kind",
    "scope",
    "plural",
    "singular",
    "short_name",
    "category",
    "status",
    "doc",
    "spec_required",
    "flatten_spec",
    "skip",
];

fn resource_arg(arg: &Arg, b: &mut Builder) -> syn::Result<()> {
    let lower = |s: LitStr, what: &str| -> syn::Result<LitStr> {
        names::check_dns_label(&s, what)?;
        Ok(s)
    };
    match arg.name().as_str() {
        "group" => b.group = Some(arg.string()?),
        "version" => b.version = Some(arg.string()?),
        "kind" => b.kind = Some(arg.string()?),
        "scope" => b.scope = Some(one_of(&arg.string()?, "scope", &["Namespaced", "Cluster"])?),
        "plural" => b.plural = Some(lower(arg.string()?, "plural")?),
        "singular" => b.singular = Some(lower(arg.string()?, "singular")?),
        "short_name" => {
            for s in arg.strings()? {
                b.short_names.push(lower(s, "short name")?.value());
            }
        }
        "category" => {
            for s in arg.strings()? {
                b.categories.push(lower(s, "category")?.value());
            }
        }
        "status" => b.status_type = Some(arg.non_empty_string()?),
        "doc" => b.doc = Some(arg.string()?.value()),
        "spec_required" => b.spec_required = arg.flag()?,
        "flatten_spec" => b.flatten_spec = arg.flag()?.then(|| arg.span()),
        "skip" => b.skip_crd = arg.flag()?,
        _ => return Err(unknown_key(arg, "resource", &RESOURCE_KEYS)),
    }
    Ok(())
}

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

fn scale_arg(arg: &Arg) -> syn::Result<Scale> {
    let (mut spec, mut status, mut selector) = (None, None, None);
    let mut seen = Seen::default();
    for inner in &arg.nested()? {
        seen.once(inner)?;
        match inner.name().as_str() {
            "spec_path" => spec = Some(json_path(inner)?),
            "status_path" => status = Some(json_path(inner)?),
            "selector_path" => selector = Some(json_path(inner)?),
            _ => {
                return Err(unknown_key(
                    inner,
                    "subresource(scale)",
                    &["spec_path", "status_path", "selector_path"],
                ));
            }
        }
    }
    let need = |what: &str| {
        syn::Error::new(
            arg.key.span(),
            format!("`scale(...)` needs `{what} = \"...\"`"),
        )
    };
    Ok(Scale {
        spec_path: spec.ok_or_else(|| need("spec_path"))?,
        status_path: status.ok_or_else(|| need("status_path"))?,
        selector_path: selector,
        span: arg.key.span(),
    })
}

const PRINTCOLUMN_KEYS: [&str; 6] = [
    "name",
    "type",
    "json_path",
    "description",
    "format",
    "priority",
];

fn printcolumn(attr: &Attribute, args: &[Arg]) -> syn::Result<PrinterColumn> {
    let (mut name, mut type_, mut path, mut description, mut format, mut priority) =
        (None, None, None, None, None, 0);
    let mut seen = Seen::default();
    for arg in args {
        seen.once(arg)?;
        match arg.name().as_str() {
            "name" => name = Some(arg.non_empty_string()?.value()),
            "type" => {
                type_ = Some(one_of(
                    &arg.string()?,
                    "printcolumn type",
                    &["integer", "number", "string", "boolean", "date"],
                )?)
            }
            "json_path" => path = Some(json_path(arg)?),
            "description" => description = Some(arg.string()?.value()),
            "format" => format = Some(arg.non_empty_string()?.value()),
            "priority" => {
                priority = i32::try_from(arg.count()?)
                    .map_err(|_| syn::Error::new(arg.key.span(), "`priority` must fit in an i32"))?
            }
            _ => return Err(unknown_key(arg, "printcolumn", &PRINTCOLUMN_KEYS)),
        }
    }
    let span = attr.meta.path().segments[0].ident.span();
    let need =
        |what: &str| syn::Error::new(span, format!("#[printcolumn] needs `{what} = \"...\"`"));
    Ok(PrinterColumn {
        name: name.ok_or_else(|| need("name"))?,
        type_: type_.ok_or_else(|| need("type"))?,
        json_path: path.ok_or_else(|| need("json_path"))?,
        description,
        format,
        priority,
    })
}
