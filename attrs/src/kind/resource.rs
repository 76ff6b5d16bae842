//! `#[resource(...)]`: the kind's names, scope and shape (`+groupName`, `+versionName`,
//! `+kubebuilder:resource`, `+kubebuilder:skip`). Several `#[resource]` attributes add up.

use proc_macro2::Span;
use syn::{Ident, LitStr};

use crate::args::{Arg, Seen, unknown_key};
use crate::checks::one_of;
use crate::errors::Errors;
use crate::names;

/// What `#[resource]` says, defaults filled in.
#[derive(Clone, Debug)]
pub struct Resource {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub kind_span: Span,
    pub namespaced: bool,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    /// The root type's doc comment.
    pub doc: Option<String>,
    /// `spec_required`: `spec` is required (Go: a `Spec` field without `omitempty`).
    pub spec_required: bool,
    /// `flatten_spec`: the spec's fields sit at the root of the object, beside `metadata`
    /// (Go: a root type with fields of its own and no `Spec`, like `ConfigMap`).
    pub flatten_spec: bool,
    /// `status_required`: `status` is required (Go: a `Status` field without `omitempty` or
    /// `omitzero`).
    pub status_required: bool,
    /// `skip`: no CRD for this kind (controller-gen's `+kubebuilder:skip`).
    pub skip_crd: bool,
}

const KEYS: [&str; 14] = [
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
    "status_required",
    "skip",
];

/// The arguments of every `#[resource]` so far.
#[derive(Default)]
pub(super) struct Builder {
    group: Option<LitStr>,
    version: Option<LitStr>,
    kind: Option<LitStr>,
    scope: Option<String>,
    plural: Option<LitStr>,
    singular: Option<LitStr>,
    short_names: Vec<String>,
    categories: Vec<String>,
    /// `status = "Type"`: a status field without the subresource, which `KindAttrs::status`
    /// reconciles with `#[subresource(status)]`.
    pub(super) status_type: Option<LitStr>,
    doc: Option<String>,
    spec_required: bool,
    flatten_spec: Option<Span>,
    /// Where `status_required` was written: `KindAttrs::status` refuses it without a status.
    pub(super) status_required: Option<Span>,
    skip_crd: bool,
    seen: Seen,
}

impl Builder {
    pub(super) fn add(&mut self, args: &[Arg], errors: &Errors) {
        for arg in args {
            if errors.ok(self.seen.once(arg)).is_some() {
                errors.ok(self.arg(arg));
            }
        }
    }

    fn arg(&mut self, arg: &Arg) -> syn::Result<()> {
        let lower = |s: LitStr, what: &str| -> syn::Result<LitStr> {
            names::check_dns_label(&s, what)?;
            Ok(s)
        };
        match arg.name().as_str() {
            "group" => self.group = Some(arg.string()?),
            "version" => self.version = Some(arg.string()?),
            "kind" => self.kind = Some(arg.string()?),
            "scope" => {
                self.scope = Some(one_of(&arg.string()?, "scope", &["Namespaced", "Cluster"])?)
            }
            "plural" => self.plural = Some(lower(arg.string()?, "plural")?),
            "singular" => self.singular = Some(lower(arg.string()?, "singular")?),
            "short_name" => {
                for s in arg.strings()? {
                    self.short_names.push(lower(s, "short name")?.value());
                }
            }
            "category" => {
                for s in arg.strings()? {
                    self.categories.push(lower(s, "category")?.value());
                }
            }
            "status" => self.status_type = Some(arg.non_empty_string()?),
            // The root type's doc comment, read as one (TODO lines, `---`, trailing blanks).
            "doc" => self.doc = crate::doc::from_text(&arg.string()?.value()),
            "spec_required" => self.spec_required = arg.flag()?,
            "flatten_spec" => self.flatten_spec = arg.flag()?.then(|| arg.span()),
            "status_required" => self.status_required = arg.flag()?.then(|| arg.span()),
            "skip" => self.skip_crd = arg.flag()?,
            _ => return Err(unknown_key(arg, "resource", &KEYS)),
        }
        Ok(())
    }

    /// The resource, once group, version and kind are given and valid; `spec` is where missing
    /// ones are reported.
    pub(super) fn finish(self, spec: &Ident, errors: &Errors) -> Option<Resource> {
        let required = |value: Option<LitStr>,
                        what: &str,
                        check: fn(&LitStr) -> syn::Result<()>| {
            let Some(value) = value else {
                errors.push(syn::Error::new(
                    spec.span(),
                    format!(
                        "#[derive(CustomResource)] needs #[resource({what} = \"...\")] (for example #[resource(group = \"app.example.com\", version = \"v1\", kind = \"WebApp\")])"
                    ),
                ));
                return None;
            };
            errors.ok(check(&value)).map(|()| value)
        };
        let group = required(self.group, "group", names::check_group);
        let version = required(self.version, "version", names::check_version);
        let kind = required(self.kind, "kind", names::check_kind);
        if let Some(span) = self.flatten_spec
            && self.spec_required
        {
            errors.push(syn::Error::new(
                span,
                "#[resource(flatten_spec)] puts the spec's fields at the root, so there is no `spec` for #[resource(spec_required)] to require: mark the fields required instead",
            ));
        }
        let (group, version, kind) = (group?, version?, kind?);
        let kind_name = kind.value();
        Some(Resource {
            group: group.value(),
            version: version.value(),
            kind_span: kind.span(),
            namespaced: self.scope.as_deref() != Some("Cluster"),
            plural: self
                .plural
                .map(|p| p.value())
                .unwrap_or_else(|| names::crd_default_plural(&kind_name)),
            singular: self
                .singular
                .map(|s| s.value())
                .unwrap_or_else(|| names::singular(&kind_name)),
            kind: kind_name,
            short_names: self.short_names,
            categories: self.categories,
            doc: self.doc,
            spec_required: self.spec_required,
            flatten_spec: self.flatten_spec.is_some(),
            status_required: self.status_required.is_some(),
            skip_crd: self.skip_crd,
        })
    }
}
