//! The sources of the two API crates: one table of fields, spelled by each flavour.

/// How many kinds each crate has.
pub const KINDS: usize = 50;

/// A validation, which each flavour spells its own way.
#[derive(Clone, Copy)]
enum Check {
    /// A string's length (a minimum of 0 is left out).
    StrLen(u32, u32),
    /// A string's regular expression.
    Pattern(&'static str),
    /// A number's inclusive bounds.
    Range(i64, i64),
    /// A list's length (a minimum of 0 is left out).
    ItemCount(u32, u32),
    /// The maximum length of each string of a list.
    EachStrLen(u32),
    /// The inclusive bounds of each number of a list.
    EachRange(i64, i64),
    /// A map's maximum number of entries.
    MaxEntries(u32),
}

/// One field of a generated struct; `{K}` in its type stands for the kind's name.
struct Field {
    name: &'static str,
    ty: &'static str,
    doc: &'static str,
    checks: &'static [Check],
    /// The value an absent field gets: a literal that is both JSON and Rust.
    default: Option<&'static str>,
    /// `#[serde(default)]`: absent means empty.
    serde_default: bool,
}

const fn field(name: &'static str, ty: &'static str, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        doc,
        checks: &[],
        default: None,
        serde_default: false,
    }
}

impl Field {
    const fn checks(self, checks: &'static [Check]) -> Self {
        Field { checks, ..self }
    }
    const fn default(self, literal: &'static str) -> Self {
        Field {
            default: Some(literal),
            ..self
        }
    }
    const fn serde_default(self) -> Self {
        Field {
            serde_default: true,
            ..self
        }
    }
}

use Check::*;

const DNS_LABEL: &str = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

/// How many fields each kind's spec has.
pub const SPEC_FIELDS: usize = SPEC.len();

const SPEC: [Field; 20] = [
    field("image", "String", "The container image.").checks(&[StrLen(1, 253)]),
    field("host", "String", "The host name.").checks(&[StrLen(0, 63), Pattern(DNS_LABEL)]),
    field("replicas", "i32", "Pods to run.")
        .checks(&[Range(1, 10)])
        .default("1"),
    field("port", "i32", "The port served.")
        .checks(&[Range(1, 65535)])
        .default("80"),
    field("timeout_seconds", "i64", "The request timeout.")
        .checks(&[Range(0, 3600)])
        .default("30"),
    field("max_surge", "Option<u32>", "Extra pods during a rollout.").checks(&[Range(0, 100)]),
    field("description", "Option<String>", "What this is for.").checks(&[StrLen(0, 1024)]),
    field("suspend", "Option<bool>", "Stops reconciling."),
    field("args", "Vec<String>", "Container arguments.")
        .checks(&[ItemCount(0, 32), EachStrLen(256)])
        .serde_default(),
    field("target_ports", "Vec<i32>", "Ports to expose.")
        .checks(&[ItemCount(1, 16), EachRange(1, 65535)]),
    field("labels", "BTreeMap<String, String>", "Labels of the pods.")
        .checks(&[MaxEntries(64)])
        .serde_default(),
    field(
        "annotations",
        "Option<BTreeMap<String, String>>",
        "Annotations of the pods.",
    ),
    field("resources", "{K}Resources", "What each pod gets."),
    field("sidecars", "Vec<{K}Resources>", "Helper containers.")
        .checks(&[ItemCount(0, 8)])
        .serde_default(),
    field("schedule", "Option<String>", "A cron schedule.").checks(&[Pattern(r"^(\S+\s+){4}\S+$")]),
    field("not_before", "Option<Time>", "No rollout before this time."),
    field("priority", "i32", "Scheduling priority.").checks(&[Range(-100, 100)]),
    field("ratio", "Option<f64>", "The share of canary traffic.").checks(&[Range(0, 1)]),
    field("tags", "Vec<String>", "Free-form tags.")
        .checks(&[ItemCount(0, 16), EachStrLen(63)])
        .serde_default(),
    field("min_ready_seconds", "Option<i32>", "Readiness delay.").checks(&[Range(0, 600)]),
];

const RESOURCES: [Field; 4] = [
    field("cpu", "String", "CPU, in cores or millicores.").checks(&[Pattern("^[0-9]+m?$")]),
    field("memory", "String", "Memory.").checks(&[Pattern("^[0-9]+(Ki|Mi|Gi)?$")]),
    field("gpus", "Option<i32>", "GPUs.").checks(&[Range(0, 8)]),
    field("class_name", "Option<String>", "The runtime class.").checks(&[StrLen(0, 63)]),
];

const STATUS: [Field; 5] = [
    field(
        "observed_generation",
        "Option<i64>",
        "The generation last reconciled.",
    ),
    field("phase", "Option<{K}Phase>", "Where the rollout is."),
    field("ready_replicas", "i32", "Pods ready.").serde_default(),
    field(
        "last_update_time",
        "Option<Time>",
        "When the status last changed.",
    ),
    field("message", "Option<String>", "A human-readable summary."),
];

/// (name, type, JSON path) of each printer column.
const COLUMNS: [(&str, &str, &str); 4] = [
    ("Image", "string", ".spec.image"),
    ("Replicas", "integer", ".spec.replicas"),
    ("Phase", "string", ".status.phase"),
    ("Age", "date", ".metadata.creationTimestamp"),
];

/// How an API crate is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Webop,
    Kube,
}

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
            Flavour::Webop => format!(
                "webop = {{ path = {:?}, default-features = false }}\n{}",
                env!("CARGO_MANIFEST_DIR"),
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
