//! The input rules of SPEC §1, checked before anything is written. Every error names the bad
//! value and the rule it breaks.

use std::fmt;

/// A bad input: which input, its value, and the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// What the value is (`kind`, `group`, `project name`, ...).
    pub what: &'static str,
    /// The value as given.
    pub value: String,
    /// The rule, as a sentence fragment ("a kind must be PascalCase ...").
    pub rule: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} {:?}: {}", self.what, self.value, self.rule)
    }
}

impl std::error::Error for Invalid {}

fn invalid(what: &'static str, value: &str, rule: impl Into<String>) -> Invalid {
    Invalid {
        what,
        value: value.to_owned(),
        rule: rule.into(),
    }
}

pub use webop_attrs::names::is_rust_keyword;
use webop_attrs::names::{
    dns_label_rule, dns_subdomain_rule, is_dns1123_subdomain, kind_rule, version_rule,
};

/// The suffixes of the types generated for a kind (`WebAppSpec`, `WebAppStatus`, ...).
const COMPANION_SUFFIXES: &[&str] = &["Spec", "Status", "Phase", "List"];

/// A kind: PascalCase ASCII, a Rust identifier that is neither a keyword nor a prelude name.
pub fn kind(value: &str) -> Result<(), Invalid> {
    kind_rule(value).map_err(|rule| invalid("kind", value, rule))
}

/// A kind must not collide with the types generated for another kind of the same version
/// (`WebAppStatus` next to `WebApp`'s status type), nor the other way round.
pub fn kind_alongside(value: &str, version: &str, others: &[&str]) -> Result<(), Invalid> {
    for other in others {
        for suffix in COMPANION_SUFFIXES {
            let (a, b) = (format!("{other}{suffix}"), format!("{value}{suffix}"));
            if a == value || b == *other {
                return Err(invalid(
                    "kind",
                    value,
                    format!(
                        "a kind must not share a name with the types generated for another kind of \
                         {version} ({other} has {other}Spec, {other}Status, {other}Phase and {other}List)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn dns_subdomain(what: &'static str, value: &str) -> Result<(), Invalid> {
    dns_subdomain_rule(what, value).map_err(|rule| invalid(what, value, rule))
}

/// An API group (`app`): a DNS-1123 subdomain.
pub fn group(value: &str) -> Result<(), Invalid> {
    dns_subdomain("group", value)
}

/// A domain (`example.com`): a DNS-1123 subdomain.
pub fn domain(value: &str) -> Result<(), Invalid> {
    dns_subdomain("domain", value)
}

/// The full group `<group>.<domain>` must itself be a DNS-1123 subdomain (it is the CRD's group).
pub fn qualified_group(group: &str, domain: &str) -> Result<(), Invalid> {
    let full = format!("{group}.{domain}");
    if is_dns1123_subdomain(&full) {
        return Ok(());
    }
    Err(invalid(
        "group",
        group,
        format!(
            "with domain {domain:?} the full API group {full:?} ({} characters) {}",
            full.len(),
            dns_subdomain_rule("group", &full)
                .unwrap_err()
                .trim_start_matches("a group ")
        ),
    ))
}

/// A group must not repeat the domain: webop appends it (`--group app` → `app.example.com`), so
/// `--group app.example.com` would become `app.example.com.example.com`.
pub fn group_without_domain(group: &str, domain: &str) -> Result<(), Invalid> {
    if group == domain || group.ends_with(&format!(".{domain}")) {
        let short = group
            .strip_suffix(domain)
            .map(|g| g.trim_end_matches('.'))
            .unwrap_or(group);
        let hint = if short.is_empty() {
            "a group of its own".to_owned()
        } else {
            format!("--group {short}")
        };
        return Err(invalid(
            "group",
            group,
            format!(
                "a group is given without the project's domain, which webop appends \
                 ({group:?} would become \"{group}.{domain}\"); pass {hint}"
            ),
        ));
    }
    Ok(())
}

/// A version: `^v\d+((alpha|beta)\d+)?$`.
pub fn version(value: &str) -> Result<(), Invalid> {
    version_rule(value).map_err(|rule| invalid("version", value, rule))
}

/// An imported CRD's version: any name the API server takes for one, a DNS-1035 label
/// (`create api` scaffolds only Kubernetes-style versions, as kubebuilder does).
pub fn served_version(value: &str) -> Result<(), Invalid> {
    if is_dns1035_label(value) {
        Ok(())
    } else {
        Err(invalid(
            "version",
            value,
            "a version must be a DNS-1035 label: at most 63 lowercase letters, digits and '-', starting with a letter and not ending with '-'",
        ))
    }
}

/// A controller's name (`create api --controller-name`), as kubebuilder takes it: a DNS-1035
/// label, so that with '-' as '_' it is a Rust module name.
pub fn controller_name(value: &str) -> Result<(), Invalid> {
    if is_dns1035_label(value) {
        Ok(())
    } else {
        Err(invalid(
            "controller name",
            value,
            "a controller name must be a DNS-1035 label: at most 63 lowercase letters, digits and '-', starting with a letter and not ending with '-' (such as captain-backup)",
        ))
    }
}

fn is_dns1035_label(value: &str) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes[0].is_ascii_lowercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && !value.ends_with('-')
}

/// Package names Cargo refuses or reserves.
const CARGO_RESERVED: &[&str] = &[
    "alloc",
    "core",
    "proc-macro",
    "proc_macro",
    "std",
    "test",
    "build",
    "deps",
    "examples",
    "incremental",
    "nul",
    "con",
    "prn",
    "aux",
];

/// A project name: a DNS-1123 label starting with a letter (it prefixes every Kubernetes object,
/// and `<name>-system` is the namespace, so at most 56 characters) and a valid Cargo package name.
pub fn project_name(value: &str) -> Result<(), Invalid> {
    let shape = value.starts_with(|c: char| c.is_ascii_lowercase())
        && dns_label_rule("project name", value).is_ok()
        && value.len() <= 56;
    if !shape {
        return Err(invalid(
            "project name",
            value,
            "a project name must be a DNS-1123 label that starts with a letter: at most 56 \
             characters (so that \"<name>-system\" is a valid namespace) of lower-case letters, \
             digits and '-', ending with a letter or digit; pass --project-name to choose another \
             than the directory's name",
        ));
    }
    if CARGO_RESERVED.contains(&value) || is_rust_keyword(&value.replace('-', "_")) {
        return Err(invalid(
            "project name",
            value,
            "a project name must be a valid Cargo package name, not a Rust keyword or a name \
             Cargo reserves",
        ));
    }
    Ok(())
}

/// A plural resource name: lower-case alphanumerics and '-' (a DNS-1123 label).
pub fn plural(value: &str) -> Result<(), Invalid> {
    dns_label_rule("plural", value).map_err(|rule| invalid("plural", value, rule))
}

/// The plural derived from `kind` must be a DNS-1123 label too (the API server refuses a longer
/// resource name).
pub fn derived_plural(kind: &str, plural: &str) -> Result<(), Invalid> {
    dns_label_rule("plural", plural).map_err(|rule| {
        invalid(
            "kind",
            kind,
            format!("its plural {plural:?} is not a valid resource name: {rule}; pass a shorter --plural"),
        )
    })
}

/// ASCII without spaces, quotes, backslashes, braces or '#': safe in every generated file.
fn is_plain_reference(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '"' | '\'' | '\\' | '{' | '}' | '#'))
}

/// A container image reference (`nginx:1.25`).
pub fn image(value: &str) -> Result<(), Invalid> {
    if is_plain_reference(value) {
        return Ok(());
    }
    Err(invalid(
        "image",
        value,
        "an image must be a container image reference such as nginx:1.25 or \
         registry.example.com/team/app@sha256:... (no spaces, quotes, braces or '#')",
    ))
}

/// Where the code lives (`github.com/example/webapp-operator`).
pub fn repo(value: &str) -> Result<(), Invalid> {
    if is_plain_reference(value) {
        return Ok(());
    }
    Err(invalid(
        "repo",
        value,
        "a repo must be a repository path such as github.com/example/webapp-operator (no spaces, \
         quotes, braces or '#')",
    ))
}

/// A Rust module path (`cert_manager_types::v1`): `::`-separated identifiers, no keyword.
pub fn rust_path(what: &'static str, value: &str) -> Result<(), Invalid> {
    let ident = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
            && s.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
            && !is_rust_keyword(s)
    };
    if value.split("::").all(ident) && value.contains("::") {
        return Ok(());
    }
    Err(invalid(
        what,
        value,
        "it must be the Rust module of the kind's type, such as cert_manager_types::v1 \
         (`::`-separated identifiers, the first the crate's)",
    ))
}

#[cfg(test)]
mod tests;
