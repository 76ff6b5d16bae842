//! Proc-macros of webop. Depend on `webop` and `use webop::prelude::*;` instead of this crate:
//! the generated code names `::webop`.

mod crd_version;
mod custom_resource;
mod kind_checks;
mod paths;
mod schema_derive;
mod serde_wrap;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

fn finish(result: syn::Result<proc_macro2::TokenStream>) -> TokenStream {
    result.unwrap_or_else(syn::Error::into_compile_error).into()
}

/// A custom resource kind, derived on its `...Spec` struct: generates the root type with
/// `metadata`, `spec` and `status`, its kube traits, `<Kind>::crd()` and `<Kind>::crd_version()`.
/// See the attribute catalogue in webop's README.
#[proc_macro_derive(
    CustomResource,
    attributes(
        resource,
        subresource,
        printcolumn,
        storage_version,
        unserved_version,
        skip_version,
        deprecated_version,
        selectable_field,
        root,
        metadata,
        validate,
        schema,
        x_validation
    )
)]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    finish(custom_resource::expand(&input))
}

/// The CRD schema of a struct or of an enum of unit variants, for types used by a kind.
#[proc_macro_derive(Schema, attributes(validate, schema, x_validation))]
pub fn derive_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    finish(schema_derive::derive(&input))
}

/// serde's `Serialize`, with `Option` fields omitted when `None` (Go's `omitempty`).
#[proc_macro_derive(Serialize, attributes(serde, validate, schema, x_validation))]
pub fn derive_serialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    finish(serde_wrap::expand(&input, serde_wrap::Direction::Serialize))
}

/// serde's `Deserialize`, with `#[schema(default = ...)]` filling absent fields as the API
/// server does.
#[proc_macro_derive(Deserialize, attributes(serde, validate, schema, x_validation))]
pub fn derive_deserialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    finish(serde_wrap::expand(
        &input,
        serde_wrap::Direction::Deserialize,
    ))
}

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

mod webhook;

/// `#[webhook(path = "/mutate-...", mutating, failure_policy = "fail", side_effects = "None",
/// groups = [...], resources = [...], verbs = [...], versions = [...], name = "...",
/// admission_review_versions = ["v1"])]`: an admission webhook the operator serves
/// (controller-gen's `+kubebuilder:webhook`). Checked here, collected into
/// `config/webhook/manifests.yaml` by `webop manifests`.
///
/// Other keys: `url` (instead of `path`), `match_policy`, `timeout_seconds`, `service_name`,
/// `service_namespace`, `service_port`, `webhook_versions`, `reinvocation_policy`.
#[proc_macro_attribute]
pub fn webhook(args: TokenStream, item: TokenStream) -> TokenStream {
    webhook::expand(
        webop_attrs::webhook::parse_args_of_webhook,
        args.into(),
        item.into(),
    )
    .into()
}

/// `#[webhook_configuration(mutating, name = "...")]`: the name of the mutating (or, without
/// `mutating`, validating) webhook configuration (controller-gen's
/// `+kubebuilder:webhookconfiguration`).
#[proc_macro_attribute]
pub fn webhook_configuration(args: TokenStream, item: TokenStream) -> TokenStream {
    webhook::expand(
        webop_attrs::webhook::parse_args_of_configuration,
        args.into(),
        item.into(),
    )
    .into()
}
