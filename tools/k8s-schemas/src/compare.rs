//! `compare GOLDEN.yaml`: webop's schemas of k8s-openapi types against the ones controller-gen
//! wrote into a CRD (controller-tools' `testdata.kubebuilder.io_cronjobs.yaml`, v0.21.0), type by
//! type. The generator's own dump says where each type starts inside the inlined trees.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};
use webop::schema::{JSONSchemaProps, Schema};

/// Where a k8s type sits in the golden CRD.
struct Place {
    pointer: &'static str,
    type_name: &'static str,
    ours: fn() -> JSONSchemaProps,
}

const SCHEMA: &str = "/spec/versions/0/schema/openAPIV3Schema/properties";

const PLACES: &[Place] = &[
    Place {
        pointer: "/spec/properties/jobTemplate",
        type_name: "io.k8s.api.batch.v1.JobTemplateSpec",
        ours: <k8s_openapi::api::batch::v1::JobTemplateSpec as Schema>::schema,
    },
    Place {
        pointer: "/status/properties/active/items",
        type_name: "io.k8s.api.core.v1.ObjectReference",
        ours: <k8s_openapi::api::core::v1::ObjectReference as Schema>::schema,
    },
];

#[derive(Default)]
struct Findings {
    occurrences: usize,
    descriptions: usize,
    line_breaks: BTreeSet<String>,
    text: BTreeSet<String>,
    structure: BTreeSet<String>,
}

struct Walk<'a> {
    types: &'a Map<String, Value>,
    findings: BTreeMap<String, Findings>,
}

/// The field of the golden CRD that holds a type: its description is the CRD field's doc.
const CRD_FIELD: &str = "(the CRD's own field)";

pub fn run(golden_path: &str, types: &Map<String, Value>) {
    let text =
        std::fs::read_to_string(golden_path).unwrap_or_else(|e| panic!("{golden_path}: {e}"));
    let golden: Value =
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{golden_path}: {e}"));
    let mut walk = Walk {
        types,
        findings: BTreeMap::new(),
    };
    for place in PLACES {
        let pointer = format!("{SCHEMA}{}", place.pointer);
        let golden = golden
            .pointer(&pointer)
            .unwrap_or_else(|| panic!("no {pointer} in {golden_path}"));
        let ours = serde_json::to_value((place.ours)()).unwrap();
        let reference = serde_json::json!({ "$ref": place.type_name });
        walk.node(
            Some(&reference),
            golden,
            &ours,
            "",
            Some(CRD_FIELD),
            place.type_name,
        );
    }
    walk.findings.remove(CRD_FIELD);
    report(&walk.findings);
}

impl Walk<'_> {
    /// Compares one schema node. `owner` is the type the node's structure belongs to;
    /// `field_owner` the type whose field doc and markers describe it (None: `owner`).
    fn node(
        &mut self,
        dump: Option<&Value>,
        golden: &Value,
        ours: &Value,
        owner: &str,
        field_owner: Option<&str>,
        path: &str,
    ) {
        let (dump, owner) = match dump.and_then(|d| d.get("$ref")).and_then(Value::as_str) {
            Some(name) => {
                self.findings
                    .entry(name.to_owned())
                    .or_default()
                    .occurrences += 1;
                (self.types.get(name), name.to_owned())
            }
            None => (dump, owner.to_owned()),
        };
        let field_owner = field_owner.unwrap_or(&owner).to_owned();
        let empty = Map::new();
        let g = golden.as_object().unwrap_or(&empty);
        let o = ours.as_object().unwrap_or(&empty);
        let keys: BTreeSet<&String> = g.keys().chain(o.keys()).collect();
        for key in keys {
            let (gv, ov) = (g.get(key), o.get(key));
            let at = format!("{path}.{key}");
            match key.as_str() {
                "properties" => {
                    let gp = gv.and_then(Value::as_object).unwrap_or(&empty);
                    let op = ov.and_then(Value::as_object).unwrap_or(&empty);
                    let names: BTreeSet<&String> = gp.keys().chain(op.keys()).collect();
                    for name in names {
                        let at = format!("{path}.{name}");
                        match (gp.get(name), op.get(name)) {
                            (Some(gn), Some(on)) => {
                                let dn =
                                    dump.and_then(|d| d.pointer(&format!("/properties/{name}")));
                                self.node(dn, gn, on, &owner, Some(&owner), &at);
                            }
                            (gn, _) => {
                                let what = if gn.is_some() {
                                    "missing in webop"
                                } else {
                                    "only in webop"
                                };
                                self.finding(&owner)
                                    .structure
                                    .insert(format!("{at}: {what}"));
                            }
                        }
                    }
                }
                "items" | "additionalProperties"
                    if gv.is_some_and(Value::is_object) && ov.is_some_and(Value::is_object) =>
                {
                    let dn = dump.and_then(|d| d.get(key));
                    self.node(
                        dn,
                        gv.unwrap(),
                        ov.unwrap(),
                        &owner,
                        None,
                        &format!("{path}[]"),
                    );
                }
                "description" => {
                    let who = field_owner.clone();
                    let findings = self.finding(&who);
                    findings.descriptions += 1;
                    if gv == ov {
                        continue;
                    }
                    let words = |v: Option<&Value>| {
                        v.and_then(Value::as_str)
                            .unwrap_or("")
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    if words(gv) == words(ov) {
                        findings.line_breaks.insert(at);
                    } else {
                        findings.text.insert(format!(
                            "{at}:\n      controller-gen: {gv:?}\n      webop:          {ov:?}"
                        ));
                    }
                }
                _ if gv == ov => {}
                _ => {
                    let who = if key == "default" {
                        field_owner.clone()
                    } else {
                        owner.clone()
                    };
                    self.finding(&who).structure.insert(format!(
                        "{at}: controller-gen {}, webop {}",
                        show(gv),
                        show(ov)
                    ));
                }
            }
        }
    }

    fn finding(&mut self, type_name: &str) -> &mut Findings {
        self.findings.entry(type_name.to_owned()).or_default()
    }
}

fn show(value: Option<&Value>) -> String {
    value.map_or_else(|| "(absent)".to_owned(), Value::to_string)
}

fn report(findings: &BTreeMap<String, Findings>) {
    let short = |name: &str| name.trim_start_matches("io.k8s.").to_owned();
    let identical: Vec<String> = findings
        .iter()
        .filter(|(_, f)| f.structure.is_empty() && f.text.is_empty() && f.line_breaks.is_empty())
        .map(|(n, _)| short(n))
        .collect();
    println!(
        "identical ({}): {}\n",
        identical.len(),
        identical.join(", ")
    );
    let line_breaks_only: Vec<String> = findings
        .iter()
        .filter(|(_, f)| f.structure.is_empty() && f.text.is_empty() && !f.line_breaks.is_empty())
        .map(|(n, f)| format!("{} ({}/{})", short(n), f.line_breaks.len(), f.descriptions))
        .collect();
    println!(
        "structure identical, descriptions differ only in line breaks (differing/compared) ({}): {}\n",
        line_breaks_only.len(),
        line_breaks_only.join(", ")
    );
    for (name, f) in findings
        .iter()
        .filter(|(_, f)| !f.structure.is_empty() || !f.text.is_empty())
    {
        println!(
            "{} (seen {}x; descriptions: {} compared, {} differ in line breaks only, {} in text)",
            short(name),
            f.occurrences,
            f.descriptions,
            f.line_breaks.len(),
            f.text.len()
        );
        for s in &f.structure {
            println!("  structure {s}");
        }
        for t in &f.text {
            println!("  text {t}");
        }
    }
    let total = |f: fn(&Findings) -> usize| findings.values().map(f).sum::<usize>();
    println!(
        "\n{} types; descriptions: {} compared, {} differ in line breaks only, {} in text; {} structural differences",
        findings.len(),
        total(|f| f.descriptions),
        total(|f| f.line_breaks.len()),
        total(|f| f.text.len()),
        total(|f| f.structure.len())
    );
}
