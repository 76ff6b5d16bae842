//! Proc-macros of webop. Depend on `webop` and `use webop::prelude::*;` instead of this crate.

use proc_macro::TokenStream;

/// `#[rbac(groups = [...], resources = [...], verbs = [...])]`: a permission the operator needs.
/// Checked here, collected into `config/rbac/role.yaml` by `webop manifests`.
#[proc_macro_attribute]
pub fn rbac(args: TokenStream, item: TokenStream) -> TokenStream {
    let _ = args;
    item
}
