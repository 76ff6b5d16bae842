//! What the code `#[derive(CustomResource)]` generates names, shared by its two expansions (the
//! root type in `custom_resource`, its `CrdVersion` in `crd_version`): the crates webop
//! re-exports for it, and the root type's name.

use proc_macro2::TokenStream;
use quote::quote;
use webop_attrs::kind::KindAttrs;

pub(crate) fn k8s() -> TokenStream {
    quote!(::webop::__private::k8s_openapi)
}

pub(crate) fn kube_core() -> TokenStream {
    quote!(::webop::__private::kube_core)
}

/// The root type: the kind, spanned at the attribute that names it.
pub(crate) fn root_ident(attrs: &KindAttrs) -> syn::Ident {
    syn::Ident::new(&attrs.resource.kind, attrs.resource.kind_span)
}
