//! Rust names for what a schema names: type names from property names, field identifiers
//! and their serde renames, enum variants.

use std::collections::BTreeSet;

use heck::{ToSnakeCase, ToUpperCamelCase};
use serde_json::Value;

/// A property's name as a type name (`podTemplate` → `PodTemplate`).
pub fn camel_hint(hint: &str) -> String {
    let mut hint = hint.to_upper_camel_case();
    if hint.is_empty() || hint.starts_with(|c: char| c.is_ascii_digit()) {
        hint.insert(0, 'T');
    }
    hint
}

/// The variants of a Rust enum for string values `values`, if each value makes a distinct
/// identifier.
pub fn variants(values: &Value) -> Option<Vec<(String, Option<String>)>> {
    let values = values.as_array()?;
    let mut idents = BTreeSet::new();
    let mut out = Vec::new();
    for value in values {
        let value = value.as_str()?;
        let mut ident = value.to_upper_camel_case();
        if ident.is_empty() {
            return None;
        }
        if ident.starts_with(|c: char| c.is_ascii_digit()) {
            ident.insert(0, 'V');
        }
        if ident == "Self" {
            ident.push('_');
        }
        if !idents.insert(ident.clone()) {
            return None;
        }
        let rename = (ident != value).then(|| value.to_owned());
        out.push((ident, rename));
    }
    (!out.is_empty()).then_some(out)
}

/// `rules` → `Rule`: the name of a list's item type (English plurals, roughly).
pub fn singular(hint: &str) -> String {
    if let Some(stem) = hint.strip_suffix("ies") {
        format!("{stem}y")
    } else if ["sses", "uses", "xes", "ches", "shes"]
        .iter()
        .any(|e| hint.ends_with(e))
    {
        hint[..hint.len() - 2].to_owned()
    } else if hint.ends_with('s') && !hint.ends_with("ss") && hint.len() > 1 {
        hint[..hint.len() - 1].to_owned()
    } else {
        format!("{hint}Item")
    }
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// A field's identifier for the property `name`: snake case, raw for a keyword, unique in its
/// struct.
pub fn field_ident(name: &str, taken: &mut BTreeSet<String>) -> String {
    let mut ident = name.to_snake_case();
    if ident.is_empty() {
        ident = "field".into();
    }
    if ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert(0, '_');
    }
    if matches!(ident.as_str(), "self" | "super" | "crate") {
        ident.push('_');
    }
    if KEYWORDS.contains(&ident.as_str()) {
        ident.insert_str(0, "r#");
    }
    let base = ident.clone();
    let mut n = 2;
    while !taken.insert(ident.clone()) {
        ident = format!("{base}_{n}");
        n += 1;
    }
    ident
}

/// serde's `rename_all = "camelCase"` of a field named `ident`.
pub fn camel_case(ident: &str) -> String {
    let mut pascal = String::new();
    let mut capitalize = true;
    for c in ident.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            pascal.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            pascal.push(c);
        }
    }
    let mut chars = pascal.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
