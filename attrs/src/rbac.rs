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

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Meta};

use crate::errors::Errors;
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

/// Checks the arguments of `#[rbac(...)]` as the attribute macro receives them; `attribute` is
/// the span errors about the attribute as a whole point at. A syntax error stops parsing; every
/// other error is reported with the rest.
pub fn parse_args(args: TokenStream, attribute: Span) -> syn::Result<RbacAttr> {
    let mut collector = Collector::default();
    for arg in &crate::args::parse_args(args)? {
        collector.entry(arg);
    }
    collector.finish(attribute)
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
    crate::args::webop_attribute_name(attr).as_deref() == Some("rbac")
}

/// Every `#[rbac]` in `file`, wherever it is (items, impl blocks, nested modules, function
/// bodies), in source order; all errors of the file combined.
pub fn rules_in_file(file: &syn::File) -> syn::Result<Vec<RbacAttr>> {
    let mut finder = Finder::default();
    finder.visit_file(file);
    finder.errors.finish_with(finder.rules)
}

#[derive(Default)]
struct Finder {
    rules: Vec<RbacAttr>,
    errors: Errors,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if is_rbac_attribute(attr)
            && let Some(rule) = self.errors.ok(parse_attribute(attr))
        {
            self.rules.push(rule);
        }
    }
}

#[cfg(test)]
mod tests;
