//! The arguments of one `#[rbac(...)]`, in the grammar every webop attribute shares
//! (`crate::args`): each `key = value` checked on its own, then the rules between keys.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitStr};

use super::{RbacAttr, RbacValue};
use crate::args::{Arg, ArgValue};
use crate::errors::Errors;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Groups,
    Resources,
    ResourceNames,
    Verbs,
    Urls,
    Namespace,
    RoleName,
}

pub(super) const KEYS: [(&str, Key); 7] = [
    ("groups", Key::Groups),
    ("resources", Key::Resources),
    ("resource_names", Key::ResourceNames),
    ("verbs", Key::Verbs),
    ("urls", Key::Urls),
    ("namespace", Key::Namespace),
    ("role_name", Key::RoleName),
];

impl Key {
    fn name(self) -> &'static str {
        KEYS.iter()
            .find(|(_, k)| *k == self)
            .map(|(name, _)| *name)
            .expect("every key is listed")
    }

    fn is_list(self) -> bool {
        !matches!(self, Key::Namespace | Key::RoleName)
    }

    fn example(self) -> &'static str {
        match self {
            Key::Groups => r#"groups = ["apps"]"#,
            Key::Resources => r#"resources = ["deployments"]"#,
            Key::ResourceNames => r#"resource_names = ["my-config"]"#,
            Key::Verbs => r#"verbs = ["get", "list"]"#,
            Key::Urls => r#"urls = ["/metrics"]"#,
            Key::Namespace => r#"namespace = "system""#,
            Key::RoleName => r#"role_name = "config-reader""#,
        }
    }
}

/// Spellings from controller-gen and Kubernetes (compared without case and `_`) and the key
/// they mean here.
const ALIASES: [(&str, &str); 4] = [
    ("apigroups", "groups"),
    ("nonresourceurls", "urls"),
    ("resourcenames", "resource_names"),
    ("rolename", "role_name"),
];

/// The key a misspelt one most likely meant.
pub(super) fn closest_key(name: &str) -> Option<&'static str> {
    let keys = KEYS.map(|(key, _)| key);
    crate::suggest::closest(name, &keys, &ALIASES)
}

/// One argument as written: the key's span and its values.
struct Argument {
    key_span: Span,
    values: Vec<RbacValue>,
}

/// Checks the arguments of one `#[rbac(...)]`, collecting every error.
#[derive(Default)]
pub(super) struct Collector {
    arguments: Vec<(Key, Argument)>,
    /// Keys suggested for misspelt ones: not reported again as missing.
    suggested: Vec<Key>,
    errors: Errors,
}

impl Collector {
    fn error(&self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    fn get(&self, key: Key) -> Option<&Argument> {
        self.arguments
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, argument)| argument)
    }

    /// One `key = value` of the attribute. Errors are collected so that all of them are
    /// reported at once.
    pub(super) fn entry(&mut self, arg: &Arg) {
        let key_span = arg.key.span();
        let name = arg.name();
        let Some(key) = key_named(&name) else {
            let suggestion = closest_key(&name);
            self.suggested.extend(suggestion.and_then(key_named));
            self.error(key_span, unknown_key_message(&name, suggestion));
            return;
        };
        let ArgValue::Value(value) = &arg.value else {
            self.error(
                key_span,
                format!("`{name}` needs a value, e.g. {}", key.example()),
            );
            return;
        };
        if self.get(key).is_some() {
            self.error(
                key_span,
                format!("`{name}` is given twice; put all values in one list"),
            );
            return;
        }
        let values = if key.is_list() {
            self.list(key, value)
        } else {
            self.string(key, value).into_iter().collect()
        };
        self.arguments.push((key, Argument { key_span, values }));
    }

    fn list(&self, key: Key, value: &Expr) -> Vec<RbacValue> {
        let mut rejected = 0;
        let literals: Vec<&LitStr> = match value {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => vec![s],
            Expr::Array(array) => array
                .elems
                .iter()
                .filter_map(|element| match element {
                    Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s),
                    other => {
                        let found = other.to_token_stream();
                        let name = key.name();
                        self.error(other.span(), format!("`{name}` takes strings; `{found}` is not a string literal (write \"{found}\")"));
                        rejected += 1;
                        None
                    }
                })
                .collect(),
            other => {
                let found = other.to_token_stream();
                self.error(
                    other.span(),
                    format!("`{}` takes a list of strings, e.g. {} or \"a;b\"; found `{found}`", key.name(), key.example()),
                );
                return Vec::new();
            }
        };
        let from_string = matches!(value, Expr::Lit(_));
        let mut values = Vec::new();
        for literal in literals {
            let text = literal.value();
            // controller-gen's list syntax; an array element is one value as written.
            let items: Vec<&str> = if from_string {
                text.split(';').collect()
            } else {
                vec![&text]
            };
            for item in items {
                match self.list_item(key, item, literal.span()) {
                    Some(value) => values.push(value),
                    None => rejected += 1,
                }
            }
        }
        if values.is_empty() && rejected == 0 {
            self.error(
                value.span(),
                format!(
                    "`{}` is empty; give at least one value, e.g. {}",
                    key.name(),
                    key.example()
                ),
            );
        }
        values
    }

    fn list_item(&self, key: Key, item: &str, span: Span) -> Option<RbacValue> {
        if key == Key::Groups {
            // "" is the core group; "core" is its friendlier name.
            let group = if item == "core" { "" } else { item };
            if group.chars().any(|c| c.is_whitespace() || c == ',') {
                self.error(span, format!("group \"{item}\" contains a space or `,`; separate groups with `;` or list them in an array"));
                return None;
            }
            return Some(RbacValue {
                value: group.to_owned(),
                span,
            });
        }
        if item.is_empty() {
            self.error(
                span,
                format!(
                    "empty string in `{}`: every value must be non-empty",
                    key.name()
                ),
            );
            return None;
        }
        if item.chars().any(|c| c.is_whitespace() || c == ',') {
            let name = key.name();
            self.error(span, format!("`{name}` value \"{item}\" contains a space or `,`; separate values with `;` or list them in an array"));
            return None;
        }
        Some(RbacValue {
            value: item.to_owned(),
            span,
        })
    }

    fn string(&self, key: Key, value: &Expr) -> Option<RbacValue> {
        match value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) if s.value().is_empty() => {
                self.error(
                    s.span(),
                    format!(
                        "`{}` is an empty string; leave it out or name it, e.g. {}",
                        key.name(),
                        key.example()
                    ),
                );
                None
            }
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(RbacValue {
                value: s.value(),
                span: s.span(),
            }),
            other => {
                let found = other.to_token_stream();
                self.error(
                    other.span(),
                    format!(
                        "`{}` takes a string, e.g. {}; found `{found}`",
                        key.name(),
                        key.example()
                    ),
                );
                None
            }
        }
    }

    /// Rules between arguments, then the result; `attribute` is the span errors about the
    /// attribute as a whole point at.
    pub(super) fn finish(mut self, attribute: Span) -> syn::Result<RbacAttr> {
        let span_of = |collector: &Self, key: Key| collector.get(key).map(|a| a.key_span);
        let missing = |collector: &Self, key: Key| {
            collector.get(key).is_none() && !collector.suggested.contains(&key)
        };
        if missing(&self, Key::Verbs) {
            self.error(
                attribute,
                r#"#[rbac] needs `verbs`, e.g. verbs = ["get", "list", "watch"]"#,
            );
        }
        if let Some(urls) = span_of(&self, Key::Urls) {
            let conflicting: Vec<String> = [Key::Groups, Key::Resources, Key::ResourceNames]
                .into_iter()
                .filter(|key| self.get(*key).is_some())
                .map(|key| format!("`{}`", key.name()))
                .collect();
            if !conflicting.is_empty() {
                let conflicting = conflicting.join(" and ");
                self.error(
                    urls,
                    format!("`urls` cannot be combined with {conflicting}: a rule grants either API resources or non-resource URLs; write two #[rbac] attributes"),
                );
            }
            if let Some(namespace) = span_of(&self, Key::Namespace) {
                self.error(
                    namespace,
                    "`namespace` cannot be used with `urls`: a namespaced Role cannot hold non-resource URLs; drop `namespace`",
                );
            }
        } else if self.get(Key::Resources).is_none() {
            if missing(&self, Key::Resources) && missing(&self, Key::Urls) {
                self.error(attribute, r#"#[rbac] needs `resources` (e.g. resources = ["deployments"]) or `urls` (e.g. urls = ["/metrics"])"#);
            }
        } else if missing(&self, Key::Groups) {
            let resources = span_of(&self, Key::Resources).expect("checked above");
            self.error(resources, r#"`resources` need `groups`, e.g. groups = ["apps"]; the core group (pods, services, ...) is groups = [""]"#);
        }
        std::mem::take(&mut self.errors).finish()?;
        let mut take = |key: Key| {
            self.arguments
                .iter_mut()
                .find(|(k, _)| *k == key)
                .map(|(_, a)| std::mem::take(&mut a.values))
                .unwrap_or_default()
        };
        Ok(RbacAttr {
            groups: take(Key::Groups),
            resources: take(Key::Resources),
            resource_names: take(Key::ResourceNames),
            verbs: take(Key::Verbs),
            urls: take(Key::Urls),
            namespace: take(Key::Namespace).into_iter().next(),
            role_name: take(Key::RoleName).into_iter().next(),
            span: attribute,
        })
    }
}

fn key_named(name: &str) -> Option<Key> {
    KEYS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
}

fn unknown_key_message(name: &str, suggestion: Option<&str>) -> String {
    let keys: Vec<&str> = KEYS.iter().map(|(n, _)| *n).collect();
    let hint = match suggestion {
        Some(key) => format!("did you mean `{key}`? "),
        None => String::new(),
    };
    format!(
        "unknown key `{name}` in #[rbac]: {hint}(keys: {})",
        keys.join(", ")
    )
}
