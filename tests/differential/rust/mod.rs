//! A case as Rust source with webop's attributes: one module of the generated crate.

mod attributes;

use std::fmt::Write;

use super::model::{Case, Doc, Field, K8s, Marker, Presence, Scalar, Ty, TypeDef};
use super::words;
use attributes::attributes;

/// The Rust module of `case`, with `pub fn crd()` returning its CRD.
pub fn source(case: &Case) -> String {
    let mut out =
        String::from("#![allow(clippy::duplicated_attributes)]\n\nuse webop::prelude::*;\n");
    for (id, def) in case.types.iter().enumerate() {
        out.push('\n');
        match def {
            TypeDef::Struct(s) => {
                doc(&mut out, "", &s.doc);
                if id == case.spec {
                    out.push_str(
                        "#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]\n",
                    );
                    kind_attributes(case, &mut out);
                } else {
                    out.push_str("#[derive(Schema, Clone, Debug, Serialize, Deserialize)]\n");
                }
                if case.package_optional {
                    out.push_str("#[validate(optional)]\n");
                }
                attributes(&mut out, "", &s.markers);
                writeln!(out, "pub struct {} {{", s.name).unwrap();
                for (i, field) in s.fields.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    write_field(case, i, field, &mut out);
                }
                out.push_str("}\n");
            }
            TypeDef::Enum(e) => {
                doc(&mut out, "", &e.doc);
                out.push_str("#[derive(Schema, Clone, Debug, Serialize, Deserialize)]\n");
                attributes(&mut out, "", &e.markers);
                writeln!(out, "pub enum {} {{", e.name).unwrap();
                for (i, value) in e.values.iter().enumerate() {
                    if is_variant_name(value) {
                        writeln!(out, "    {value},").unwrap();
                    } else {
                        writeln!(out, "    #[serde(rename = {value:?})]\n    V{i},").unwrap();
                    }
                }
                out.push_str("}\n");
            }
            TypeDef::Newtype(n) => {
                doc(&mut out, "", &n.doc);
                out.push_str("#[derive(Schema, Clone, Debug, Serialize, Deserialize)]\n");
                attributes(&mut out, "", &n.markers);
                writeln!(
                    out,
                    "pub struct {}(pub {});",
                    n.name,
                    scalar(n.inner, false)
                )
                .unwrap();
            }
        }
    }
    writeln!(
        out,
        "\npub fn crd() -> webop::crd::CustomResourceDefinition {{\n    {}::crd()\n}}",
        case.kind
    )
    .unwrap();
    out
}

/// An enum value that can be the variant's own name (serde writes it as is).
fn is_variant_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_uppercase())
        && value.chars().all(|c| c.is_ascii_alphanumeric())
        && !matches!(value, "Self")
}

fn kind_attributes(case: &Case, out: &mut String) {
    writeln!(
        out,
        "#[resource(group = {:?}, version = {:?}, kind = {:?})]",
        case.group, case.version, case.kind
    )
    .unwrap();
    let mut resource = Vec::new();
    if let Some(plural) = &case.plural {
        resource.push(format!("plural = {plural:?}"));
    }
    if let Some(singular) = &case.singular {
        resource.push(format!("singular = {singular:?}"));
    }
    if !case.short_names.is_empty() {
        resource.push(format!("short_name = {:?}", case.short_names));
    }
    if !case.categories.is_empty() {
        resource.push(format!("category = {:?}", case.categories));
    }
    if case.cluster_scoped {
        resource.push("scope = \"Cluster\"".to_owned());
    }
    if case.spec_required {
        resource.push("spec_required".to_owned());
    }
    if !case.root_doc.is_empty() {
        resource.push(format!("doc = {:?}", case.root_doc.join("\n")));
    }
    if let Some((status, false)) = case.status {
        resource.push(format!("status = {:?}", case.types[status].name()));
    }
    if !resource.is_empty() {
        writeln!(out, "#[resource({})]", resource.join(", ")).unwrap();
    }
    let mut subresources = Vec::new();
    if let Some((status, true)) = case.status {
        subresources.push(format!("status = {:?}", case.types[status].name()));
    }
    if let Some(scale) = &case.scale {
        let mut paths = format!(
            "spec_path = {:?}, status_path = {:?}",
            scale.spec_path, scale.status_path
        );
        if let Some(selector) = &scale.selector_path {
            write!(paths, ", selector_path = {selector:?}").unwrap();
        }
        subresources.push(format!("scale({paths})"));
    }
    if !subresources.is_empty() {
        writeln!(out, "#[subresource({})]", subresources.join(", ")).unwrap();
    }
    for column in &case.printcolumns {
        let mut args = format!(
            "name = {:?}, type = {:?}, json_path = {:?}",
            column.name, column.type_, column.json_path
        );
        if let Some(description) = &column.description {
            write!(args, ", description = {description:?}").unwrap();
        }
        if let Some(format) = column.format {
            write!(args, ", format = {format:?}").unwrap();
        }
        if let Some(priority) = column.priority {
            write!(args, ", priority = {priority}").unwrap();
        }
        writeln!(out, "#[printcolumn({args})]").unwrap();
    }
}

fn doc(out: &mut String, indent: &str, doc: &Doc) {
    for line in doc {
        if line.is_empty() {
            writeln!(out, "{indent}///").unwrap();
        } else {
            writeln!(out, "{indent}/// {line}").unwrap();
        }
    }
}

fn write_field(case: &Case, index: usize, field: &Field, out: &mut String) {
    doc(out, "    ", &field.doc);
    let ident = rust_ident(&field.name, index);
    if field.inline {
        writeln!(
            out,
            "    #[serde(flatten)]\n    pub {ident}: {},",
            rust_type(case, &field.ty, false)
        )
        .unwrap();
        return;
    }
    if ident != field.name {
        writeln!(out, "    #[serde(rename = {:?})]", field.name).unwrap();
    }
    let has_default = field
        .markers
        .iter()
        .any(|m| matches!(m, Marker::Default(_)));
    let container = matches!(field.ty, Ty::List(_) | Ty::Map(_));
    let ty = rust_type(case, &field.ty, true);
    let ty = match field.presence {
        // Go's field without `omitempty` is required even with a default; in Rust a default
        // makes a field optional unless it says it is required.
        Presence::Plain if has_default && !case.package_optional => {
            out.push_str("    #[validate(required)]\n");
            ty
        }
        Presence::Plain => ty,
        Presence::MarkedOptional(_) => {
            out.push_str("    #[validate(optional)]\n");
            ty
        }
        Presence::MarkedRequired(_) => {
            out.push_str("    #[validate(required)]\n");
            if field.rust_serde_default {
                ty
            } else {
                format!("Option<{ty}>")
            }
        }
        // A default makes a field optional, as `Option` does.
        Presence::OmitEmpty if has_default && field.rust_serde_default => ty,
        Presence::OmitEmpty if container && field.rust_serde_default => {
            out.push_str("    #[serde(default)]\n");
            ty
        }
        Presence::OmitEmpty => format!("Option<{ty}>"),
    };
    if field.ty == Ty::Json && field.markers.contains(&Marker::IntOrString) {
        // `serde_json::Value` preserves unknown fields; an int-or-string must not.
        out.push_str("    #[validate(schemaless)]\n");
    }
    attributes(out, "    ", &field.markers);
    writeln!(out, "    pub {ident}: {ty},").unwrap();
}

/// The Rust name of field `index`: the JSON name in snake case, `_` appended to keywords
/// (`odd_<index>` for a name that is no identifier).
pub fn rust_ident(name: &str, index: usize) -> String {
    if !words::is_identifier(name) {
        return format!("odd_{index}");
    }
    let mut ident = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            ident.push('_');
            ident.push(c.to_ascii_lowercase());
        } else {
            ident.push(c);
        }
    }
    if syn_keyword(&ident) {
        ident.push('_');
    }
    ident
}

fn syn_keyword(ident: &str) -> bool {
    matches!(
        ident,
        "as" | "async"
            | "await"
            | "box"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "override"
            | "priv"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "try"
            | "type"
            | "unsafe"
            | "use"
            | "virtual"
            | "where"
            | "while"
            | "yield"
    )
}

/// `Vec<u8>` is Go's `[]byte` as a field; inside lists and maps it is k8s-openapi's `ByteString`.
fn scalar(s: Scalar, top_level: bool) -> &'static str {
    match s {
        Scalar::Int32 => "i32",
        Scalar::Int64 => "i64",
        Scalar::Float64 => "f64",
        Scalar::String => "String",
        Scalar::Bool => "bool",
        Scalar::Bytes if top_level => "Vec<u8>",
        Scalar::Bytes => "k8s_openapi::ByteString",
    }
}

fn rust_type(case: &Case, ty: &Ty, top_level: bool) -> String {
    match ty {
        Ty::Scalar(s) => scalar(*s, top_level).to_owned(),
        Ty::List(item) => format!("Vec<{}>", rust_type(case, item, false)),
        Ty::Map(value) => format!(
            "std::collections::BTreeMap<String, {}>",
            rust_type(case, value, false)
        ),
        Ty::Named(id) => case.types[*id].name().to_owned(),
        Ty::K8s(k8s) => k8s_type(*k8s).to_owned(),
        Ty::Json => "serde_json::Value".to_owned(),
    }
}

fn k8s_type(k8s: K8s) -> &'static str {
    match k8s {
        K8s::Time => "k8s_openapi::apimachinery::pkg::apis::meta::v1::Time",
        K8s::MicroTime => "k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime",
        K8s::Condition => "k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition",
        K8s::LabelSelector => "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector",
        K8s::ObjectMeta => "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta",
        K8s::Quantity => "k8s_openapi::apimachinery::pkg::api::resource::Quantity",
        K8s::IntOrString => "k8s_openapi::apimachinery::pkg::util::intstr::IntOrString",
        K8s::RawExtension => "k8s_openapi::apimachinery::pkg::runtime::RawExtension",
        K8s::ResourceRequirements => "k8s_openapi::api::core::v1::ResourceRequirements",
        K8s::LocalObjectReference => "k8s_openapi::api::core::v1::LocalObjectReference",
        K8s::ObjectReference => "k8s_openapi::api::core::v1::ObjectReference",
        K8s::EnvVar => "k8s_openapi::api::core::v1::EnvVar",
        K8s::Toleration => "k8s_openapi::api::core::v1::Toleration",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idents_are_snake_case_and_keywords_are_escaped() {
        assert_eq!(rust_ident("maxSurge", 0), "max_surge");
        assert_eq!(rust_ident("type", 0), "type_");
        assert_eq!(rust_ident("a", 0), "a");
        assert_eq!(rust_ident("x-y", 3), "odd_3");
    }
}
