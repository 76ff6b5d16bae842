//! Proc-macros of webop. Depend on `webop` and `use webop::prelude::*;` instead of this crate.

use proc_macro::TokenStream;

mod rbac;

/// `#[rbac(groups = [...], resources = [...], verbs = [...])]`: a permission the operator needs.
/// Checked here, collected into `config/rbac/role.yaml` by `webop manifests`.
///
/// Keys: `groups` (`""` or `"core"` is the core group), `resources`, `resource_names`, `verbs`,
/// `urls` (non-resource URLs), `namespace` (a `Role` in that namespace instead of the
/// `ClusterRole`), `role_name`. Lists are arrays (`["get", "list"]`) or `"get;list"` strings.
#[proc_macro_attribute]
pub fn rbac(args: TokenStream, item: TokenStream) -> TokenStream {
    rbac::expand(args.into(), item.into()).into()
}
