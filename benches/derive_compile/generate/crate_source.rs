//! The files of one flavour's API crate: its manifest, each kind's source spelled from the field
//! table, and a binary summarising its CRDs.

use super::Check::*;
use super::{COLUMNS, Check, Field, Flavour, KINDS, RESOURCES, SPEC, STATUS};

impl Flavour {
    /// The flavour's name in crate names and output.
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Webop => "webop",
            Flavour::Kube => "kube",
        }
    }

    /// The `[dependencies]` lines besides serde_json (which the summary binary uses).
    fn dependencies(self) -> String {
        let k8s_openapi = |features: &str| {
            format!(
                "k8s-openapi = {{ version = \"0.29\", default-features = false, features = [{features}] }}\n"
            )
        };
        match self {
            // As a generated API crate depends on webop: its core alone, under the name `webop`.
            Flavour::Webop => format!(
                "webop = {{ package = \"webop-core\", path = {:?} }}\n{}",
                concat!(env!("CARGO_MANIFEST_DIR"), "/core"),
                k8s_openapi("\"latest\"")
            ),
            // k8s-openapi's types implement JsonSchema only with its `schemars` feature.
            Flavour::Kube => format!(
                "kube = {{ version = \"5\", default-features = false, features = [\"derive\"] }}\n\
                 {}schemars = \"1\"\nserde = {{ version = \"1\", features = [\"derive\"] }}\n",
                k8s_openapi("\"latest\", \"schemars\"")
            ),
        }
    }

    fn imports(self) -> &'static str {
        match self {
            Flavour::Webop => "use webop::prelude::*;\n",
            Flavour::Kube => {
                "use kube::CustomResource;\nuse schemars::JsonSchema;\nuse serde::{Deserialize, Serialize};\n"
            }
        }
    }

    fn derives(self) -> &'static str {
        match self {
            Flavour::Webop => "Schema, Clone, Debug, PartialEq, Serialize, Deserialize",
            Flavour::Kube => "JsonSchema, Clone, Debug, PartialEq, Serialize, Deserialize",
        }
    }

    /// The attributes that make `<kind>Spec` a custom resource.
    fn kind_attributes(self, kind: &str) -> String {
        let group = "bench.example.com";
        let doc = format!("{kind} is the Schema for the {}s API", kind.to_lowercase());
        let mut out = String::new();
        match self {
            Flavour::Webop => {
                out +=
                    "#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]\n";
                out +=
                    &format!("#[resource(group = {group:?}, version = \"v1\", kind = {kind:?})]\n");
                out += &format!("#[resource(doc = {doc:?})]\n#[subresource(status)]\n");
                for (name, ty, path) in COLUMNS {
                    out += &format!(
                        "#[printcolumn(name = {name:?}, type = {ty:?}, json_path = {path:?})]\n"
                    );
                }
            }
            Flavour::Kube => {
                out += "#[derive(CustomResource, JsonSchema, Clone, Debug, PartialEq, Serialize, Deserialize)]\n";
                out += &format!(
                    "#[kube(group = {group:?}, version = \"v1\", kind = {kind:?}, namespaced)]\n"
                );
                out += &format!("#[kube(doc = {doc:?}, status = \"{kind}Status\")]\n");
                for (name, ty, path) in COLUMNS {
                    out += &format!(
                        "#[kube(printcolumn(name = {name:?}, type_ = {ty:?}, json_path = {path:?}))]\n"
                    );
                }
            }
        }
        out
    }

    fn checks(self, checks: &[Check]) -> Option<String> {
        if checks.is_empty() {
            return None;
        }
        let min = |key: &str, min: u32| (min > 0).then(|| format!("{key} = {min}, "));
        let spelled: Vec<String> = checks
            .iter()
            .map(|check| match (self, *check) {
                (Flavour::Webop, StrLen(lo, hi)) => {
                    format!(
                        "{}max_length = {hi}",
                        min("min_length", lo).unwrap_or_default()
                    )
                }
                (Flavour::Webop, Pattern(p)) => format!("pattern = {p:?}"),
                (Flavour::Webop, Range(lo, hi)) => format!("minimum = {lo}, maximum = {hi}"),
                (Flavour::Webop, ItemCount(lo, hi)) => {
                    format!(
                        "{}max_items = {hi}",
                        min("min_items", lo).unwrap_or_default()
                    )
                }
                (Flavour::Webop, EachStrLen(hi)) => format!("items(max_length = {hi})"),
                (Flavour::Webop, EachRange(lo, hi)) => {
                    format!("items(minimum = {lo}, maximum = {hi})")
                }
                (Flavour::Webop, MaxEntries(hi)) => format!("max_properties = {hi}"),
                (Flavour::Kube, StrLen(lo, hi) | ItemCount(lo, hi)) => {
                    format!("length({}max = {hi})", min("min", lo).unwrap_or_default())
                }
                (Flavour::Kube, Pattern(p)) => format!("pattern({p:?})"),
                (Flavour::Kube, Range(lo, hi)) => format!("range(min = {lo}, max = {hi})"),
                (Flavour::Kube, EachStrLen(hi)) => format!("inner(length(max = {hi}))"),
                (Flavour::Kube, EachRange(lo, hi)) => {
                    format!("inner(range(min = {lo}, max = {hi}))")
                }
                // schemars has no attribute for maxProperties; `extend` adds any keyword.
                (Flavour::Kube, MaxEntries(hi)) => format!("extend(\"maxProperties\" = {hi})"),
            })
            .collect();
        let attribute = match self {
            Flavour::Webop => "validate",
            Flavour::Kube => "schemars",
        };
        Some(format!("    #[{attribute}({})]\n", spelled.join(", ")))
    }

    /// A struct's source, and the default functions its fields name (kube's spelling of a
    /// default is a serde default function, which schemars reads too).
    fn fields(self, kind: &str, fields: &[Field]) -> (String, String) {
        let (mut body, mut functions) = (String::new(), String::new());
        for f in fields {
            let ty = f.ty.replace("{K}", kind);
            body += &format!("    /// {}\n", f.doc);
            body += &self.checks(f.checks).unwrap_or_default();
            if let Some(literal) = f.default {
                match self {
                    Flavour::Webop => body += &format!("    #[schema(default = {literal})]\n"),
                    Flavour::Kube => {
                        body += &format!("    #[serde(default = \"default_{}\")]\n", f.name);
                        functions +=
                            &format!("fn default_{}() -> {ty} {{\n    {literal}\n}}\n\n", f.name);
                    }
                }
            }
            if f.serde_default {
                body += "    #[serde(default)]\n";
            }
            // webop's Serialize leaves out a `None` as Go does; serde needs telling.
            if self == Flavour::Kube && ty.starts_with("Option<") {
                body += "    #[serde(skip_serializing_if = \"Option::is_none\")]\n";
            }
            body += &format!("    pub {}: {ty},\n", f.name);
        }
        (body, functions)
    }

    /// `src/<kind>_types.rs`: the spec, its nested struct, the status and the phase enum.
    fn kind_source(self, kind: &str) -> String {
        let mut out = format!(
            "use std::collections::BTreeMap;\n\nuse k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;\n{}\n",
            self.imports()
        );
        let (spec, spec_defaults) = self.fields(kind, &SPEC);
        let (resources, _) = self.fields(kind, &RESOURCES);
        let (status, _) = self.fields(kind, &STATUS);
        let derives = self.derives();
        out += &format!("/// {kind}Spec defines the desired state of {kind}.\n");
        out += &self.kind_attributes(kind);
        out += &format!(
            "#[serde(rename_all = \"camelCase\")]\npub struct {kind}Spec {{\n{spec}}}\n\n"
        );
        out += &spec_defaults;
        out += &format!("/// What one container of a {kind} gets.\n#[derive({derives})]\n");
        out += &format!(
            "#[serde(rename_all = \"camelCase\")]\npub struct {kind}Resources {{\n{resources}}}\n\n"
        );
        out += &format!(
            "/// {kind}Status defines the observed state of {kind}.\n#[derive({derives}, Default)]\n"
        );
        out += &format!(
            "#[serde(rename_all = \"camelCase\")]\npub struct {kind}Status {{\n{status}}}\n\n"
        );
        out += &format!("/// The lifecycle phase of a {kind}.\n#[derive({derives}, Copy, Eq)]\n");
        out += &format!("pub enum {kind}Phase {{\n    Pending,\n    Running,\n    Failed,\n}}\n");
        out
    }

    /// Every file of the crate, by path.
    pub fn crate_files(self) -> Vec<(String, String)> {
        let package = format!("api-{}", self.name());
        let kinds: Vec<String> = (0..KINDS).map(|i| format!("Kind{i:02}")).collect();
        let mut lib = String::from(
            "//! A synthetic API crate (generated by webop's derive_compile bench).\n\n\
             use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;\n",
        );
        let crd = match self {
            Flavour::Webop => "{}::crd()",
            Flavour::Kube => "<{} as kube::CustomResourceExt>::crd()",
        };
        let mut calls = Vec::new();
        let mut files = Vec::new();
        for kind in &kinds {
            let module = format!("{}_types", kind.to_lowercase());
            lib += &format!("pub mod {module};\n");
            calls.push(crd.replace("{}", &format!("{module}::{kind}")));
            files.push((format!("src/{module}.rs"), self.kind_source(kind)));
        }
        lib += &format!(
            "\n/// The CRD of every kind.\npub fn crds() -> Vec<CustomResourceDefinition> {{\n    vec![\n        {},\n    ]\n}}\n",
            calls.join(",\n        ")
        );
        let manifest = format!(
            "[package]\nname = {package:?}\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [workspace]\n\n[dependencies]\n{}serde_json = \"1\"\n\n\
             [profile.dev]\ndebug = \"line-tables-only\"\n\n[profile.dev.package.\"*\"]\ndebug = false\n",
            self.dependencies()
        );
        let main = format!(
            "use {} as api;\n\n{SUMMARY_MAIN}",
            package.replace('-', "_")
        );
        files.extend([
            ("Cargo.toml".to_owned(), manifest),
            ("src/lib.rs".to_owned(), lib),
            ("src/main.rs".to_owned(), main),
        ]);
        files
    }
}

/// The crate's binary: a summary of its CRDs, proving both flavours do the same work.
const SUMMARY_MAIN: &str = r#"const CONSTRAINTS: [&str; 10] = [
    "minLength", "maxLength", "pattern", "minimum", "maximum",
    "minItems", "maxItems", "maxProperties", "default", "enum",
];

fn constraints(value: &serde_json::Value) -> usize {
    match value {
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(key, v)| usize::from(CONSTRAINTS.contains(&key.as_str())) + constraints(v))
            .sum(),
        serde_json::Value::Array(items) => items.iter().map(constraints).sum(),
        _ => 0,
    }
}

fn main() {
    let crds = serde_json::to_value(api::crds()).expect("CRDs serialize");
    let crds = crds.as_array().expect("a list");
    let (mut properties, mut columns, mut found) = (0, 0, 0);
    for crd in crds {
        let version = &crd["spec"]["versions"][0];
        let spec = &version["schema"]["openAPIV3Schema"]["properties"]["spec"];
        properties += spec["properties"].as_object().map_or(0, |p| p.len());
        columns += version["additionalPrinterColumns"].as_array().map_or(0, Vec::len);
        found += constraints(&version["schema"]);
    }
    println!(
        "crds={} spec_properties={properties} printer_columns={columns} constraints={found}",
        crds.len()
    );
}
"#;
