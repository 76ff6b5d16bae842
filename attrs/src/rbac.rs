//! `#[rbac(...)]`: one RBAC permission, controller-gen's `+kubebuilder:rbac` marker.
//!
//! ```text
//! #[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get", "list"])]
//! #[rbac(groups = "", resources = "pods;services", verbs = "get;list;watch")]
//! #[rbac(urls = ["/metrics"], verbs = ["get"])]
//! #[rbac(groups = [""], resources = ["configmaps"], verbs = ["get"], namespace = "system", role_name = "config-reader")]
//! ```
//!
//! Lists are Rust arrays of strings or controller-gen's `"a;b"` strings; the group `core` is the
//! core group `""`. [`parse_args`] checks the arguments of the attribute macro, [`rules_in_file`]
//! finds and checks every `#[rbac]` of a parsed source file (for `webop manifests`).
//!
//! Checked, each error at the offending key or value: known keys only (with a "did you mean"),
//! strings where strings belong, no empty values (except the core group `""`), no duplicate
//! keys, `verbs` required, `resources` with `groups` or else `urls`, and `urls` neither with
//! `groups` / `resources` / `resource_names` nor with `namespace` (Kubernetes rejects such
//! rules). All errors of an attribute are reported together.

mod args;
mod suggest;

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Meta};

use args::Collector;

/// One string of an `#[rbac]` argument and where it was written.
#[derive(Clone, Debug)]
pub struct RbacValue {
    pub value: String,
    pub span: Span,
}

/// The checked arguments of one `#[rbac(...)]`.
#[derive(Clone, Debug)]
pub struct RbacAttr {
    /// API groups; `core` has already been turned into `""`.
    pub groups: Vec<RbacValue>,
    pub resources: Vec<RbacValue>,
    pub resource_names: Vec<RbacValue>,
    pub verbs: Vec<RbacValue>,
    pub urls: Vec<RbacValue>,
    pub namespace: Option<RbacValue>,
    pub role_name: Option<RbacValue>,
    /// The whole attribute.
    pub span: Span,
}

impl RbacAttr {
    /// The strings of a list argument.
    pub fn values(list: &[RbacValue]) -> Vec<String> {
        list.iter().map(|v| v.value.clone()).collect()
    }
}

pub fn parse_args(args: TokenStream, attribute: Span) -> syn::Result<RbacAttr> {
    let mut collector = Collector::default();
    let parsed = syn::meta::parser(|meta| collector.entry(meta)).parse2(args);
    collector.finish(parsed, attribute)
}

/// Checks one `#[rbac(...)]` attribute found in source.
pub fn parse_attribute(attr: &Attribute) -> syn::Result<RbacAttr> {
    match &attr.meta {
        Meta::List(list) => parse_args(list.tokens.clone(), attr.span()),
        _ => Err(syn::Error::new_spanned(
            attr,
            r#"#[rbac] needs arguments, e.g. #[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]"#,
        )),
    }
}

/// Whether `attr` is `#[rbac]`, `#[webop::rbac]` or `#[webop::prelude::rbac]`.
pub fn is_rbac_attribute(attr: &Attribute) -> bool {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    matches!(
        segments.as_slice(),
        ["rbac"] | ["webop", "rbac"] | ["webop", "prelude", "rbac"]
    )
}

/// Every `#[rbac]` in `file`, wherever it is (items, impl blocks, nested modules, function
/// bodies), in source order; all errors of the file combined.
pub fn rules_in_file(file: &syn::File) -> syn::Result<Vec<RbacAttr>> {
    let mut finder = Finder::default();
    finder.visit_file(file);
    match finder.errors {
        Some(errors) => Err(errors),
        None => Ok(finder.rules),
    }
}

#[derive(Default)]
struct Finder {
    rules: Vec<RbacAttr>,
    errors: Option<syn::Error>,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if is_rbac_attribute(attr) {
            match parse_attribute(attr) {
                Ok(rule) => self.rules.push(rule),
                Err(error) => push_error(&mut self.errors, error),
            }
        }
    }
}

pub(super) fn push_error(errors: &mut Option<syn::Error>, error: syn::Error) {
    match errors {
        Some(all) => all.combine(error),
        None => *errors = Some(error),
    }
}

/// One argument as written: the key's span and its values.
#[cfg(test)]
mod tests;
