//! `#[webhook(...)]`: one admission webhook, controller-gen's `+kubebuilder:webhook` marker; and
//! `#[webhook_configuration(...)]`, its `+kubebuilder:webhookconfiguration`.
//!
//! ```text
//! #[webhook(path = "/mutate-app-example-com-v1-webapp", mutating, failure_policy = "fail",
//!           side_effects = "None", groups = ["app.example.com"], resources = ["webapps"],
//!           verbs = ["create", "update"], versions = ["v1"], name = "mwebapp-v1.kb.io",
//!           admission_review_versions = ["v1"])]
//! #[webhook_configuration(mutating, name = "my-mutating-webhook-configuration")]
//! ```
//!
//! Values are read as controller-gen reads them (case-insensitive policies and verbs, `core` for
//! the core group, lists as arrays or `"a;b"`) and checked as far as controller-gen checks them
//! or the API server would refuse the result: `path` or `url`, a side effect class the v1 API
//! takes, a timeout of 1 to 30 seconds, the review versions, known policies and verbs.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Attribute, Meta};

use crate::args::{Arg, Seen, parse_args, unknown_key};
use crate::errors::Errors;

/// One `#[webhook(...)]`, checked, in the values of the admissionregistration/v1 API: what the
/// macro checks and what `webop::webhook` renders into `config/webhook/manifests.yaml`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Webhook {
    pub name: String,
    pub mutating: bool,
    /// `Fail` or `Ignore`.
    pub failure_policy: String,
    /// `Exact` or `Equivalent`.
    pub match_policy: Option<String>,
    /// `None` or `NoneOnDryRun`.
    pub side_effects: String,
    pub timeout_seconds: Option<i32>,
    /// API groups; `core` has become `""`.
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    pub verbs: Vec<String>,
    pub versions: Vec<String>,
    /// The path on the webhook Service; `None` when `url` is given.
    pub path: Option<String>,
    pub url: Option<String>,
    pub service_name: Option<String>,
    pub service_namespace: Option<String>,
    pub service_port: Option<i32>,
    pub admission_review_versions: Vec<String>,
    /// `Never` or `IfNeeded`; mutating webhooks only.
    pub reinvocation_policy: Option<String>,
}

/// `#[webhook_configuration(mutating, name = "...")]`: the name of the mutating or validating
/// configuration object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Configuration {
    pub mutating: bool,
    pub name: String,
}

const KEYS: [&str; 18] = [
    "path",
    "url",
    "mutating",
    "failure_policy",
    "match_policy",
    "side_effects",
    "timeout_seconds",
    "groups",
    "resources",
    "verbs",
    "versions",
    "name",
    "service_name",
    "service_namespace",
    "service_port",
    "webhook_versions",
    "admission_review_versions",
    "reinvocation_policy",
];

/// Checks the arguments of `#[webhook(...)]`; `attribute` is where errors about the attribute as
/// a whole point. Every error is reported with the others.
pub fn parse_args_of_webhook(args: TokenStream, attribute: Span) -> syn::Result<Webhook> {
    let errors = Errors::new();
    let mut seen = Seen::default();
    let mut webhook = Webhook::default();
    for arg in &parse_args(args)? {
        if errors.ok(seen.once(arg)).is_some() {
            errors.ok(webhook_arg(&mut webhook, arg));
        }
    }
    for required in [
        "mutating",
        "failure_policy",
        "side_effects",
        "groups",
        "resources",
        "verbs",
        "versions",
        "name",
        "admission_review_versions",
    ] {
        if !seen.contains(required) {
            errors.push(syn::Error::new(
                attribute,
                format!(
                    "#[webhook] needs `{required}` (controller-gen requires it for a v1 webhook)"
                ),
            ));
        }
    }
    // By key, so that a path refused for its value is not also reported missing.
    if seen.contains("path") == seen.contains("url") {
        errors.push(syn::Error::new(
            attribute,
            "#[webhook] needs exactly one of `path` (on the webhook Service) and `url`",
        ));
    }
    if !webhook.mutating && webhook.reinvocation_policy.is_some() {
        errors.push(syn::Error::new(
            attribute,
            "`reinvocation_policy` applies to mutating webhooks only",
        ));
    }
    errors.finish_with(webhook)
}

fn webhook_arg(webhook: &mut Webhook, arg: &Arg) -> syn::Result<()> {
    let strings = |arg: &Arg| -> syn::Result<Vec<String>> {
        let values: Vec<String> = arg.strings()?.iter().map(|s| s.value()).collect();
        if values.is_empty() {
            return Err(syn::Error::new(
                arg.span(),
                format!("`{}` needs at least one value", arg.name()),
            ));
        }
        Ok(values)
    };
    match arg.name().as_str() {
        "path" => webhook.path = Some(starting_with_slash(arg)?),
        "url" => webhook.url = Some(arg.non_empty_string()?.value()),
        "mutating" => webhook.mutating = arg.flag()?,
        "failure_policy" => webhook.failure_policy = one_of(arg, &["Fail", "Ignore"])?,
        "match_policy" => webhook.match_policy = Some(one_of(arg, &["Exact", "Equivalent"])?),
        "side_effects" => {
            let value = arg.string()?;
            webhook.side_effects = one_of(arg, &["None", "NoneOnDryRun", "Some", "Unknown"])?;
            if matches!(webhook.side_effects.as_str(), "Some" | "Unknown") {
                return Err(syn::Error::new(
                    value.span(),
                    "a v1 webhook's `side_effects` must be \"None\" or \"NoneOnDryRun\" (the API server refuses Some and Unknown)",
                ));
            }
        }
        "timeout_seconds" => {
            let seconds = arg.int()?;
            if !(1..=30).contains(&seconds) {
                return Err(syn::Error::new(
                    arg.span(),
                    format!(
                        "invalid timeout_seconds {seconds}: a webhook's timeout is 1 to 30 seconds"
                    ),
                ));
            }
            webhook.timeout_seconds = Some(seconds as i32);
        }
        "groups" => {
            webhook.groups = strings(arg)?
                .into_iter()
                .map(|g| if g == "core" { String::new() } else { g })
                .collect();
        }
        "resources" => webhook.resources = strings(arg)?,
        "verbs" => {
            webhook.verbs = arg
                .strings()?
                .iter()
                .map(operation)
                .collect::<syn::Result<_>>()?;
        }
        "versions" => webhook.versions = strings(arg)?,
        "name" => webhook.name = arg.non_empty_string()?.value(),
        "service_name" => webhook.service_name = Some(arg.non_empty_string()?.value()),
        "service_namespace" => webhook.service_namespace = Some(arg.non_empty_string()?.value()),
        "service_port" => {
            let port = arg.int()?;
            if !(1..=65535).contains(&port) {
                return Err(syn::Error::new(
                    arg.span(),
                    format!("invalid service_port {port}: a port is 1 to 65535"),
                ));
            }
            webhook.service_port = Some(port as i32);
        }
        "webhook_versions" => {
            for version in arg.strings()? {
                if version.value() != "v1" {
                    return Err(syn::Error::new(
                        version.span(),
                        format!(
                            "unsupported webhook version {:?}: only v1 is generated",
                            version.value()
                        ),
                    ));
                }
            }
        }
        "admission_review_versions" => webhook.admission_review_versions = strings(arg)?,
        "reinvocation_policy" => {
            webhook.reinvocation_policy = Some(one_of(arg, &["Never", "IfNeeded"])?);
        }
        _ => return Err(unknown_key(arg, "webhook", &KEYS)),
    }
    Ok(())
}

/// A string that names one of `allowed`, case-insensitively; the allowed spelling.
fn one_of(arg: &Arg, allowed: &[&str]) -> syn::Result<String> {
    let value = arg.string()?;
    allowed
        .iter()
        .find(|a| a.eq_ignore_ascii_case(&value.value()))
        .map(|a| (*a).to_owned())
        .ok_or_else(|| {
            syn::Error::new(
                value.span(),
                format!(
                    "invalid {} {:?}: one of {}",
                    arg.name(),
                    value.value(),
                    allowed.join(", ")
                ),
            )
        })
}

fn operation(verb: &syn::LitStr) -> syn::Result<String> {
    const OPERATIONS: [&str; 5] = ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"];
    OPERATIONS
        .iter()
        .find(|o| o.eq_ignore_ascii_case(&verb.value()))
        .map(|o| (*o).to_owned())
        .ok_or_else(|| {
            syn::Error::new(
                verb.span(),
                format!(
                    "invalid verb {:?}: a webhook's verbs are create, update, delete, connect or *",
                    verb.value()
                ),
            )
        })
}

fn starting_with_slash(arg: &Arg) -> syn::Result<String> {
    let path = arg.non_empty_string()?;
    if !path.value().starts_with('/') {
        return Err(syn::Error::new(
            path.span(),
            format!(
                "invalid path {:?}: a webhook path starts with `/`",
                path.value()
            ),
        ));
    }
    Ok(path.value())
}

/// Checks the arguments of `#[webhook_configuration(...)]`.
pub fn parse_args_of_configuration(
    args: TokenStream,
    attribute: Span,
) -> syn::Result<Configuration> {
    let errors = Errors::new();
    let mut seen = Seen::default();
    let mut mutating = false;
    let mut name = None;
    for arg in &parse_args(args)? {
        if errors.ok(seen.once(arg)).is_none() {
            continue;
        }
        match arg.name().as_str() {
            "mutating" => mutating = errors.ok(arg.flag()).unwrap_or_default(),
            "name" => name = errors.ok(arg.non_empty_string()).map(|n| n.value()),
            _ => errors.push(unknown_key(
                arg,
                "webhook_configuration",
                &["mutating", "name"],
            )),
        }
    }
    if !seen.contains("name") {
        errors.push(syn::Error::new(
            attribute,
            "#[webhook_configuration] needs `name`: the name of the configuration object",
        ));
    }
    errors.finish_with(Configuration {
        mutating,
        name: name.unwrap_or_default(),
    })
}

/// Every `#[webhook]` and `#[webhook_configuration]` of a parsed source file.
#[derive(Debug, Default)]
pub struct Found {
    pub webhooks: Vec<Webhook>,
    pub configurations: Vec<Configuration>,
}

/// Finds and checks the webhook attributes of `file`, wherever they stand; all errors combined.
pub fn webhooks_in_file(file: &syn::File) -> syn::Result<Found> {
    let mut finder = Finder::default();
    finder.visit_file(file);
    finder.errors.finish_with(finder.found)
}

#[derive(Default)]
struct Finder {
    found: Found,
    errors: Errors,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        let tokens = || match &attr.meta {
            Meta::List(list) => Ok(list.tokens.clone()),
            _ => Err(syn::Error::new_spanned(
                attr,
                "the attribute needs arguments",
            )),
        };
        match crate::args::webop_attribute_name(attr).as_deref() {
            Some("webhook") => {
                if let Some(webhook) = self
                    .errors
                    .ok(tokens().and_then(|t| parse_args_of_webhook(t, attr.span())))
                {
                    self.found.webhooks.push(webhook);
                }
            }
            Some("webhook_configuration") => {
                if let Some(configuration) = self
                    .errors
                    .ok(tokens().and_then(|t| parse_args_of_configuration(t, attr.span())))
                {
                    self.found.configurations.push(configuration);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
