//! The rules kinds, groups and versions must follow, from the API server and from Rust, checked
//! the same way by the CLI (plain strings) and the derives (with spans).

use syn::LitStr;

/// Rust's keywords (2024 edition, strict and reserved).
const KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual",
];

/// Names of Rust's 2024 prelude (and the types every API file uses) that a kind must not shadow.
const PRELUDE: [&str; 42] = [
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "ToString",
    "ToOwned",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Default",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Iterator",
    "IntoIterator",
    "Extend",
    "FromIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Future",
];

/// A kind: PascalCase, a valid Rust identifier, not a keyword nor a prelude name.
pub fn validate_kind(kind: &str) -> Result<(), String> {
    if KEYWORDS.contains(&kind) {
        return Err(format!(
            "invalid kind {kind:?}: a kind must not be a Rust keyword"
        ));
    }
    if PRELUDE.contains(&kind) {
        return Err(format!(
            "invalid kind {kind:?}: a kind must not be a name of Rust's prelude (it would shadow {kind})"
        ));
    }
    let mut chars = kind.chars();
    let pascal = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric());
    if !pascal {
        return Err(format!(
            "invalid kind {kind:?}: a kind must be PascalCase: an upper-case ASCII letter, then ASCII letters and digits (e.g. WebApp)"
        ));
    }
    Ok(())
}

/// A group or domain: a DNS-1123 subdomain (at most 253 characters of lower-case alphanumeric
/// labels joined by `.`, `-` inside a label).
pub fn validate_dns_subdomain(value: &str, what: &str) -> Result<(), String> {
    let rule = "must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', each label starting and ending with a letter or digit, at most 253 characters";
    if value.is_empty() || value.len() > 253 {
        return Err(format!("invalid {what} {value:?}: {rule}"));
    }
    if value.split('.').all(is_dns_label) {
        Ok(())
    } else {
        Err(format!("invalid {what} {value:?}: {rule}"))
    }
}

fn is_dns_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes[0] != b'-'
        && bytes[bytes.len() - 1] != b'-'
}

/// A DNS-1123 label (plural, singular, short names): lower-case alphanumerics and `-`.
pub fn validate_dns_label(value: &str, what: &str) -> Result<(), String> {
    if is_dns_label(value) {
        Ok(())
    } else {
        Err(format!(
            "invalid {what} {value:?}: must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters"
        ))
    }
}

/// An API version: `v1`, `v1alpha1`, `v2beta3`.
pub fn validate_version(version: &str) -> Result<(), String> {
    let rest = version.strip_prefix('v').unwrap_or("");
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let tail = &rest[digits..];
    let tail_ok = tail.is_empty()
        || ["alpha", "beta"].iter().any(|stage| {
            tail.strip_prefix(stage)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
    if digits > 0 && tail_ok {
        Ok(())
    } else {
        Err(format!(
            r"invalid version {version:?}: a version must match ^v\d+((alpha|beta)\d+)?$ (e.g. v1, v1alpha1, v2beta3)"
        ))
    }
}

fn spanned(value: &LitStr, result: Result<(), String>) -> syn::Result<()> {
    result.map_err(|message| syn::Error::new(value.span(), message))
}

pub fn check_kind(kind: &LitStr) -> syn::Result<()> {
    spanned(kind, validate_kind(&kind.value()))
}

pub fn check_group(group: &LitStr) -> syn::Result<()> {
    spanned(group, validate_dns_subdomain(&group.value(), "group"))
}

pub fn check_version(version: &LitStr) -> syn::Result<()> {
    spanned(version, validate_version(&version.value()))
}

pub fn check_dns_label(value: &LitStr, what: &str) -> syn::Result<()> {
    spanned(value, validate_dns_label(&value.value(), what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert!(validate_kind("WebApp").is_ok());
        for bad in ["webApp", "Web-App", "Self", "Option", "9Lives", ""] {
            assert!(validate_kind(bad).is_err(), "{bad}");
        }
        assert_eq!(
            validate_kind("Option").unwrap_err(),
            "invalid kind \"Option\": a kind must not be a name of Rust's prelude (it would shadow Option)"
        );
    }

    #[test]
    fn groups_and_domains() {
        assert!(validate_dns_subdomain("app.example.com", "group").is_ok());
        for bad in ["Example.com", "-a.com", "a..b", &"a".repeat(254)] {
            assert!(validate_dns_subdomain(bad, "domain").is_err(), "{bad}");
        }
    }

    #[test]
    fn versions() {
        for good in ["v1", "v1alpha1", "v2beta3", "v10"] {
            assert!(validate_version(good).is_ok(), "{good}");
        }
        for bad in ["1", "V1", "v1beta", "v0x", "v", "v1gamma1"] {
            assert!(validate_version(bad).is_err(), "{bad}");
        }
    }
}
