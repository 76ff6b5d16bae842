//! The rules kinds, groups and versions must follow, from the API server and from Rust. The
//! CLI checks plain strings with them (adding its own rules) and the derives check attribute
//! values with spans, so both say the same thing about the same value.

use syn::LitStr;

/// Rust's keywords (strict and reserved, edition 2024).
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// The type, trait and derive names of Rust's 2024 prelude (`std::prelude::rust_2024`). A kind
/// with one of these names would shadow it in the generated code.
const RUST_PRELUDE: &[&str] = &[
    "AsMut",
    "AsRef",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Box",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "Hash",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Whether `word` is a Rust keyword (strict or reserved, edition 2024).
pub fn is_rust_keyword(word: &str) -> bool {
    RUST_KEYWORDS.contains(&word)
}

/// The rule a kind breaks, if any: PascalCase ASCII, a Rust identifier that is neither a keyword
/// nor a prelude name.
pub fn kind_rule(kind: &str) -> Result<(), String> {
    let mut chars = kind.chars();
    let pascal = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric());
    if !pascal {
        return Err(
            "a kind must be PascalCase: an upper-case ASCII letter followed by ASCII \
                    letters and digits (like WebApp or Memcached)"
                .into(),
        );
    }
    if is_rust_keyword(kind) {
        return Err("a kind must not be a Rust keyword (it names a Rust type)".into());
    }
    if RUST_PRELUDE.contains(&kind) {
        return Err(format!(
            "a kind must not be a name of Rust's prelude: the generated type would shadow std's {kind}"
        ));
    }
    Ok(())
}

const DNS1123_SUBDOMAIN_RULE: &str = "must be a DNS-1123 subdomain: at most 253 characters of \
     lower-case letters, digits, '-' and '.', each dot-separated label starting and ending with a \
     letter or digit and at most 63 characters long (like example.com)";

/// Lower-case alphanumerics and '-', starting and ending with an alphanumeric, at most 63.
fn is_dns1123_label(label: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    label.len() <= 63
        && label.starts_with(alnum)
        && label.ends_with(alnum)
        && label.chars().all(|c| alnum(c) || c == '-')
}

/// Whether `value` is a DNS-1123 subdomain (what Kubernetes requires of API groups).
pub fn is_dns1123_subdomain(value: &str) -> bool {
    !value.is_empty() && value.len() <= 253 && value.split('.').all(is_dns1123_label)
}

/// The rule a group or domain (`what`) breaks, if any: a DNS-1123 subdomain.
pub fn dns_subdomain_rule(what: &str, value: &str) -> Result<(), String> {
    if is_dns1123_subdomain(value) {
        return Ok(());
    }
    let detail = if value.len() > 253 {
        format!(" (it has {} characters)", value.len())
    } else {
        String::new()
    };
    Err(format!("a {what} {DNS1123_SUBDOMAIN_RULE}{detail}"))
}

/// The rule a resource name (plural, singular, short name) breaks, if any: a DNS-1123 label.
pub fn dns_label_rule(what: &str, value: &str) -> Result<(), String> {
    if is_dns1123_label(value) {
        Ok(())
    } else {
        Err(format!(
            "a {what} must be a DNS-1123 label: lower-case letters, digits and '-', starting and \
             ending with a letter or digit, at most 63 characters"
        ))
    }
}

/// The rule a version breaks, if any: `^v\d+((alpha|beta)\d+)?$`.
pub fn version_rule(version: &str) -> Result<(), String> {
    fn digits(s: &str) -> Option<&str> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        (end > 0).then(|| &s[end..])
    }
    let valid = version
        .strip_prefix('v')
        .and_then(digits)
        .is_some_and(|rest| {
            rest.is_empty()
                || ["alpha", "beta"].iter().any(|stage| {
                    rest.strip_prefix(stage)
                        .and_then(digits)
                        .is_some_and(str::is_empty)
                })
        });
    if valid {
        Ok(())
    } else {
        Err(r"a version must match ^v\d+((alpha|beta)\d+)?$ (like v1, v2beta1 or v1alpha2)".into())
    }
}

fn spanned(what: &str, value: &LitStr, rule: Result<(), String>) -> syn::Result<()> {
    rule.map_err(|rule| {
        syn::Error::new(
            value.span(),
            format!("invalid {what} {:?}: {rule}", value.value()),
        )
    })
}

pub fn check_kind(kind: &LitStr) -> syn::Result<()> {
    spanned("kind", kind, kind_rule(&kind.value()))
}

pub fn check_group(group: &LitStr) -> syn::Result<()> {
    spanned("group", group, dns_subdomain_rule("group", &group.value()))
}

/// The rule a CRD version name breaks, if any: the API server's, a DNS-1035 label. Looser than
/// [`version_rule`], which the CLI applies (as kubebuilder scaffolds only Kubernetes-style
/// versions while controller-gen takes any version a CRD may have).
pub fn crd_version_rule(version: &str) -> Result<(), String> {
    let mut chars = version.chars();
    let valid = version.len() <= 63
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && version
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !version.ends_with('-');
    if valid {
        Ok(())
    } else {
        Err(
            "a CRD version must be a DNS-1035 label: lower-case letters, digits and '-', \
             starting with a letter, ending with a letter or digit, at most 63 characters \
             (like v1, v2beta1 or v1alpha2)"
                .into(),
        )
    }
}

/// Checks `#[resource(version = ...)]` with [`crd_version_rule`].
pub fn check_version(version: &LitStr) -> syn::Result<()> {
    spanned("version", version, crd_version_rule(&version.value()))
}

pub fn check_dns_label(value: &LitStr, what: &str) -> syn::Result<()> {
    spanned(what, value, dns_label_rule(what, &value.value()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crd_versions_are_dns_1035_labels() {
        for good in ["v1", "v2beta1", "foo", "v1-preview", "a"] {
            assert!(crd_version_rule(good).is_ok(), "{good}");
        }
        let long = "v".repeat(64);
        for bad in ["V1", "1v", "v1-", "", "v_1", "v.1", long.as_str()] {
            assert!(crd_version_rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn kinds() {
        assert!(kind_rule("WebApp").is_ok());
        for bad in ["webApp", "Web-App", "Self", "Option", "9Lives", "", "Debug"] {
            assert!(kind_rule(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn groups_and_domains() {
        assert!(dns_subdomain_rule("group", "app.example.com").is_ok());
        for bad in [
            "Example.com",
            "-a.com",
            "a..b",
            &"a".repeat(254),
            &"a".repeat(64),
        ] {
            assert!(dns_subdomain_rule("domain", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn versions() {
        for good in ["v1", "v1alpha1", "v2beta3", "v10"] {
            assert!(version_rule(good).is_ok(), "{good}");
        }
        for bad in ["1", "V1", "v1beta", "v0x", "v", "v1gamma1"] {
            assert!(version_rule(bad).is_err(), "{bad}");
        }
    }
}
