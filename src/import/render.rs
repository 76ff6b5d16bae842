//! The Rust source of one version of one kind: its items with doc comments and attributes, the
//! `use` lines they need, formatted by rustfmt when it is installed (it is with every Rust
//! toolchain) and otherwise as written, which is close to rustfmt's layout.

use std::fmt::Write as _;

use super::k8s::ALIASES;
use super::model::{Item, Struct, attribute_lines};
use crate::scaffold::rustfmt::format;

const BTREEMAP: &str = "std::collections::BTreeMap";
const SERDE_JSON: &str = "serde_json::";

/// The source of a `<kind>_types.rs` holding `items` (the kind's spec first), imported from
/// `source` (named in the header).
pub fn source(items: &[Item], source: &str) -> String {
    let header = format!(
        "// Imported by `webop import crd` from\n\
         // {source}.\n\
         // This file is yours: `webop manifests` gives back that CustomResourceDefinition from\n\
         // these types until you change them.\n"
    );
    file(items, &header, false)
}

/// The source of a types file holding `items` under the comment `header`; `siblings` when they
/// use types of the version's other files (`use super::*;`).
pub fn file(items: &[Item], header: &str, siblings: bool) -> String {
    let mut body = String::new();
    for item in items {
        body.push('\n');
        match item {
            Item::Struct(s) => write_struct(&mut body, s),
            Item::Enum(e) => {
                doc(&mut body, e.doc.as_deref(), "");
                body.push_str(
                    "#[derive(Schema, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]\n",
                );
                attributes(&mut body, &attribute_lines(&e.markers), "");
                let _ = writeln!(body, "pub enum {} {{", e.name);
                for (ident, rename) in &e.variants {
                    if let Some(rename) = rename {
                        let _ = writeln!(body, "    #[serde(rename = {rename:?})]");
                    }
                    let _ = writeln!(body, "    {ident},");
                }
                body.push_str("}\n");
            }
            Item::Newtype(n) => {
                doc(&mut body, n.doc.as_deref(), "");
                body.push_str(
                    "#[derive(Schema, Clone, Debug, PartialEq, Serialize, Deserialize)]\n",
                );
                attributes(&mut body, &attribute_lines(&n.markers), "");
                let _ = writeln!(body, "pub struct {}(pub {});", n.name, n.inner);
            }
        }
    }
    let mut uses: Vec<String> = Vec::new();
    if body.contains(BTREEMAP) {
        body = body.replace(BTREEMAP, "BTreeMap");
        uses.push("use std::collections::BTreeMap;".into());
    }
    uses.push(String::new());
    for (path, alias) in ALIASES {
        if body.contains(path) {
            body = body.replace(path, &format!("{alias}::"));
            uses.push(format!("use {} as {alias};", path.trim_end_matches("::")));
        }
    }
    if body.contains(SERDE_JSON) {
        // The API crate's k8s-openapi re-exports serde_json: no dependency to add.
        uses.push("use k8s_openapi::serde_json;".into());
    }
    uses.push("use webop::prelude::*;".into());
    if siblings {
        uses.push("use super::*;".into());
    }
    let mut uses: Vec<String> = uses.into_iter().skip_while(String::is_empty).collect();
    // Doc comments are the CRD's descriptions, kept as they are (Go's tabs, Markdown lists
    // whose lines are not indented) so that they come back byte for byte.
    let mut allowed = vec![
        "clippy::doc_lazy_continuation",
        "clippy::tabs_in_doc_comments",
    ];
    if nested_deeply(items) {
        // Nested maps and lists are the schema's shape, not something to hide behind aliases.
        allowed.push("clippy::type_complexity");
    }
    uses.insert(
        0,
        format!(
            "// Doc comments are the CRD's descriptions as they are; nested maps and lists its shape.\n\
             #![allow({})]\n",
            allowed.join(", ")
        ),
    );
    format(&format!("{}\n{header}{body}", uses.join("\n") + "\n"))
}

/// Whether a field's type nests generics four deep (`Option<BTreeMap<String, Vec<String>>>`
/// is three), which clippy's `type_complexity` flags.
fn nested_deeply(items: &[Item]) -> bool {
    items.iter().any(|item| match item {
        Item::Struct(s) => s.fields.iter().any(|f| f.ty.matches('<').count() >= 4),
        _ => false,
    })
}

fn write_struct(out: &mut String, s: &Struct) {
    doc(out, s.doc.as_deref(), "");
    let derive = if s.kind_attributes.is_empty() {
        "#[derive(Schema, Clone, Debug, PartialEq, Serialize, Deserialize)]"
    } else {
        "#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]"
    };
    out.push_str(derive);
    out.push('\n');
    attributes(out, &s.kind_attributes, "");
    attributes(out, &attribute_lines(&s.markers), "");
    if s.unit {
        let _ = writeln!(out, "pub struct {};", s.name);
        return;
    }
    if !s.fields.is_empty() {
        out.push_str("#[serde(rename_all = \"camelCase\")]\n");
    }
    let _ = writeln!(out, "pub struct {} {{", s.name);
    for (i, field) in s.fields.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        doc(out, field.doc.as_deref(), "    ");
        if let Some(rename) = &field.rename {
            let _ = writeln!(out, "    #[serde(rename = {rename:?})]");
        }
        if field.flatten {
            out.push_str("    #[serde(flatten)]\n");
        }
        attributes(out, &attribute_lines(&field.markers), "    ");
        let _ = writeln!(out, "    pub {}: {},", field.ident, field.ty);
    }
    out.push_str("}\n");
}

fn attributes(out: &mut String, lines: &[String], indent: &str) {
    for line in lines {
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// A description as `///` lines.
fn doc(out: &mut String, doc: Option<&str>, indent: &str) {
    let Some(doc) = doc else { return };
    for line in doc.split('\n') {
        if line.is_empty() {
            let _ = writeln!(out, "{indent}///");
        } else {
            let _ = writeln!(out, "{indent}/// {line}");
        }
    }
}
