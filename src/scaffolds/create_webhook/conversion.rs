//! The bodies of a spoke's `Convertible` impl: the fields the hub and the spoke share (same name,
//! same type, read from their `<kind>_types.rs` with syn) are copied; every other field is named
//! in a TODO. Where the types are not the plain layout `create api` writes (a spec and a status
//! struct of named fields), the body is an error with a TODO, so the file compiles and says
//! what to write.

use std::collections::BTreeMap;

use quote::ToTokens;

/// The named fields of a struct: name → type, as tokens.
type Fields = BTreeMap<String, String>;

/// What conversion needs of one version's types.
#[derive(Debug)]
pub struct KindTypes {
    /// The version's own enums of unit variants (`WebAppPhase`), by name: their variants.
    enums: BTreeMap<String, Vec<String>>,
    spec: Fields,
    /// `None` when the kind has no status.
    status: Option<Fields>,
}

impl KindTypes {
    /// Reads `<kind>Spec` (with `#[derive(CustomResource)]`) and `<kind>Status` from the source
    /// of a types file; `None` when they are not laid out as `create api` writes them.
    pub fn read(source: &str, kind: &str) -> Option<KindTypes> {
        let file = syn::parse_file(source).ok()?;
        let structs: BTreeMap<String, &syn::ItemStruct> = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Struct(s) => Some((s.ident.to_string(), s)),
                _ => None,
            })
            .collect();
        // A field whose type is defined in the version's module (`WebAppPhase`) has a type of
        // that version: the same name in another version is another type.
        let local: Vec<String> = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Struct(s) => Some(s.ident.to_string()),
                syn::Item::Enum(e) => Some(e.ident.to_string()),
                syn::Item::Type(t) => Some(t.ident.to_string()),
                _ => None,
            })
            .collect();
        let spec = structs.get(&format!("{kind}Spec"))?;
        let attrs = spec.to_token_stream().to_string();
        if attrs.contains("flatten_spec") || attrs.contains("status =") {
            return None;
        }
        let has_status = attrs.contains("subresource (status");
        let status = match has_status {
            true => Some(named_fields(
                structs.get(&format!("{kind}Status"))?,
                &local,
            )?),
            false => None,
        };
        let enums = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Enum(e) if e.variants.iter().all(|v| v.fields.is_empty()) => Some((
                    e.ident.to_string(),
                    e.variants.iter().map(|v| v.ident.to_string()).collect(),
                )),
                _ => None,
            })
            .collect();
        Some(KindTypes {
            enums,
            spec: named_fields(spec, &local)?,
            status,
        })
    }
}

/// The named fields of `item`; the type of a field that names one of the `local` types is
/// marked as the version's own, so that it matches no field of another version.
fn named_fields(item: &syn::ItemStruct, local: &[String]) -> Option<Fields> {
    let syn::Fields::Named(named) = &item.fields else {
        return None;
    };
    Some(
        named
            .named
            .iter()
            .map(|f| {
                let ident = f.ident.as_ref().expect("named").to_string();
                let ty = f.ty.to_token_stream().to_string();
                let own = ty
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| local.iter().any(|l| l == word));
                (
                    ident,
                    if own {
                        format!("{ty} (of its version)")
                    } else {
                        ty
                    },
                )
            })
            .collect(),
    )
}

/// The body of a conversion from `from` (the value `source`, `self` or `hub`) to `to`, the
/// types of `to` named through `to_path` (`v1::` for the hub, `` for the spoke itself).
pub fn body(
    kind: &str,
    from: Option<&KindTypes>,
    to: Option<&KindTypes>,
    source: &str,
    from_path: &str,
    to_path: &str,
    direction: &str,
) -> String {
    let (Some(from), Some(to)) = (from, to) else {
        return todo_body(
            source,
            &format!(
                "TODO(user): convert {kind} {direction}: its types are not the spec and status \
                 structs of named fields webop reads, so the conversion is yours to write"
            ),
        );
    };
    if from.status.is_some() != to.status.is_some() {
        return todo_body(
            source,
            &format!(
                "TODO(user): convert {kind} {direction}: one version has a status and the other \
                 has not"
            ),
        );
    }
    let mut missing = Vec::new();
    let paths = Paths {
        from: from_path,
        to: to_path,
        from_enums: &from.enums,
        to_enums: &to.enums,
    };
    let spec = literal(
        &paths,
        &format!("{to_path}{kind}Spec"),
        &from.spec,
        &to.spec,
        &format!("{source}.spec"),
        "spec",
        &mut missing,
    );
    let status = match (&from.status, &to.status) {
        (Some(from_status), Some(to_status)) => Some(literal(
            &paths,
            &format!("{to_path}{kind}Status"),
            from_status,
            to_status,
            "status",
            "status",
            &mut missing,
        )),
        _ => None,
    };
    if !missing.is_empty() {
        return todo_body(
            source,
            &format!(
                "TODO(user): convert {kind} {direction}: webop copies the fields both versions \
                 have with the same type; write the conversion of {}",
                missing.join(", ")
            ),
        );
    }
    let mut out = format!(
        "        Ok({to_path}{kind} {{\n            metadata: {source}.metadata.clone(),\n            spec: {spec},\n"
    );
    if let Some(status) = status {
        out.push_str(&format!(
            "            status: {source}.status.as_ref().map(|status| {status}),\n"
        ));
    }
    out.push_str("        })");
    out
}

/// A struct literal of `ty` whose fields come from `source`; the fields of `to` that `from`
/// lacks (or has with another type) are pushed to `missing` as `<what>.<field>`.
/// Where each side's types are named from the conversion file, and each side's enums.
struct Paths<'a> {
    from: &'a str,
    to: &'a str,
    from_enums: &'a BTreeMap<String, Vec<String>>,
    to_enums: &'a BTreeMap<String, Vec<String>>,
}

impl Paths<'_> {
    /// The conversion of `value` of the version's own type `ty` (`WebAppPhase` or
    /// `Option < WebAppPhase >`, as tokens) when it is an enum of the same unit variants in both
    /// versions: a `match` from one's variants to the other's.
    fn own_enum(&self, ty: &str, value: &str) -> Option<String> {
        let ty = ty.strip_suffix(" (of its version)")?;
        let (name, optional) = match ty
            .strip_prefix("Option < ")
            .and_then(|t| t.strip_suffix(" >"))
        {
            Some(inner) => (inner, true),
            None => (ty, false),
        };
        let variants = self.from_enums.get(name)?;
        if self.to_enums.get(name) != Some(variants) {
            return None;
        }
        let arms: String = variants
            .iter()
            .map(|v| format!("{}{name}::{v} => {}{name}::{v}, ", self.from, self.to))
            .collect();
        Some(match optional {
            true => format!("{value}.as_ref().map(|value| match value {{ {arms}}})"),
            false => format!("match &{value} {{ {arms}}}"),
        })
    }
}

fn literal(
    paths: &Paths,
    ty: &str,
    from: &Fields,
    to: &Fields,
    source: &str,
    what: &str,
    missing: &mut Vec<String>,
) -> String {
    let mut fields = Vec::new();
    for (name, to_type) in to {
        match from.get(name) {
            Some(from_type) if from_type == to_type && is_copy(to_type) => {
                fields.push(format!("{name}: {source}.{name}"));
            }
            Some(from_type) if from_type == to_type && !to_type.ends_with("(of its version)") => {
                fields.push(format!("{name}: {source}.{name}.clone()"));
            }
            Some(from_type) if from_type == to_type => {
                match paths.own_enum(to_type, &format!("{source}.{name}")) {
                    Some(converted) => fields.push(format!("{name}: {converted}")),
                    None => missing.push(format!("`{what}.{name}`")),
                }
            }
            _ => missing.push(format!("`{what}.{name}`")),
        }
    }
    for name in from.keys().filter(|name| !to.contains_key(*name)) {
        missing.push(format!("`{what}.{name}` (no counterpart)"));
    }
    if fields.is_empty() {
        return format!("{ty} {{}}");
    }
    // rustfmt indents a struct literal in a closure (`.map(|status| T { .. })`) as it indents
    // the spec's field value: the fields one level in from the field they belong to.
    let indent = "            ";
    let body: String = fields
        .iter()
        .map(|f| format!("{indent}    {f},\n"))
        .collect();
    format!("{ty} {{\n{body}{indent}}}")
}

/// Whether the type (as tokens) is a primitive or an `Option` of one: copied, not cloned
/// (clippy's `clone_on_copy`).
fn is_copy(ty: &str) -> bool {
    const PRIMITIVES: &[&str] = &[
        "bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
        "u128", "usize", "f32", "f64",
    ];
    let inner = ty
        .strip_prefix("Option < ")
        .and_then(|t| t.strip_suffix(" >"))
        .unwrap_or(ty);
    PRIMITIVES.contains(&inner)
}

/// An error naming what is left to write; the source value is read so the argument is used.
fn todo_body(source: &str, message: &str) -> String {
    format!(
        "        // {message}.\n        let _ = {source};\n        Err(ConversionError::new(\n            \"{}\",\n        ))",
        message.replace('"', "'").replace('`', "")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"
#[derive(CustomResource)]
#[resource(group = "app.example.com", version = "v1", kind = "WebApp")]
#[subresource(status)]
pub struct WebAppSpec { pub foo: Option<String> }
#[derive(Schema)]
pub struct WebAppStatus { pub conditions: Vec<metav1::Condition> }
"#;

    /// The body of the spoke `spoke`'s conversion into the hub `hub` (v1).
    fn to_v1(spoke: &Option<KindTypes>, hub: &Option<KindTypes>) -> String {
        body(
            "WebApp",
            spoke.as_ref(),
            hub.as_ref(),
            "self",
            "super::",
            "v1::",
            "to v1",
        )
    }

    #[test]
    fn shared_fields_are_copied() {
        let v1 = KindTypes::read(V1, "WebApp");
        let v2 = KindTypes::read(&V1.replace("\"v1\"", "\"v2\""), "WebApp");
        let body = to_v1(&v2, &v1);
        assert!(
            body.contains("spec: v1::WebAppSpec {\n                foo: self.spec.foo.clone(),"),
            "{body}"
        );
        assert!(
            body.contains("conditions: status.conditions.clone()"),
            "{body}"
        );
        assert!(!body.contains("TODO"), "{body}");
    }

    #[test]
    fn primitives_are_copied() {
        let v1 = KindTypes::read(
            &V1.replace(
                "foo: Option<String>",
                "foo: Option<String>, pub n: i32, pub m: Option<u8>",
            ),
            "WebApp",
        );
        let body = to_v1(&v1, &v1);
        assert!(
            body.contains("n: self.spec.n,") && body.contains("m: self.spec.m,"),
            "{body}"
        );
        assert!(body.contains("foo: self.spec.foo.clone(),"), "{body}");
    }

    #[test]
    fn a_field_of_a_type_of_the_version_is_a_todo() {
        let with_phase = V1.replace(
            "pub conditions: Vec<metav1::Condition> }",
            "pub conditions: Vec<metav1::Condition>, pub phase: Option<WebAppPhase> }\npub enum WebAppPhase { A }",
        );
        let v1 = KindTypes::read(&with_phase, "WebApp");
        // v2's phase has another variant: no match to write.
        let v2 = KindTypes::read(
            &with_phase
                .replace("\"v1\"", "\"v2\"")
                .replace("{ A }", "{ A, C }"),
            "WebApp",
        );
        let body = to_v1(&v2, &v1);
        assert!(body.contains("`status.phase`"), "{body}");
    }

    #[test]
    fn an_enum_of_the_same_unit_variants_is_matched() {
        let with_phase = V1.replace(
            "pub conditions: Vec<metav1::Condition> }",
            "pub conditions: Vec<metav1::Condition>, pub phase: Option<WebAppPhase> }\npub enum WebAppPhase { A, B }",
        );
        let v1 = KindTypes::read(&with_phase, "WebApp");
        let v2 = KindTypes::read(&with_phase.replace("\"v1\"", "\"v2\""), "WebApp");
        let body = to_v1(&v2, &v1);
        assert!(
            body.contains("phase: status.phase.as_ref().map(|value| match value { super::WebAppPhase::A => v1::WebAppPhase::A, super::WebAppPhase::B => v1::WebAppPhase::B, })"),
            "{body}"
        );
    }

    #[test]
    fn a_field_without_counterpart_is_a_todo() {
        let v1 = KindTypes::read(V1, "WebApp");
        let v2 = KindTypes::read(&V1.replace("foo: Option<String>", "bar: i32"), "WebApp");
        let body = to_v1(&v2, &v1);
        assert!(
            body.contains("`spec.foo`") && body.contains("`spec.bar` (no counterpart)"),
            "{body}"
        );
        assert!(body.contains("Err(ConversionError::new("), "{body}");
    }
}
