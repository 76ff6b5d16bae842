//! Generates `src/schema/k8s/generated/` from k8s-openapi's schemas: see `generate.sh`.
//!
//! `dump` (built with one `v1_*` feature) prints the converted schemas of that Kubernetes version
//! as JSON; `emit OUT_DIR DUMP...` merges the dumps of every version into Rust source.

#[cfg(feature = "compare")]
mod compare;
mod convert;
mod emit;
mod overlay;
mod roots;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

#[cfg(feature = "v1_33")]
const VERSION: u32 = 33;
#[cfg(feature = "v1_34")]
const VERSION: u32 = 34;
#[cfg(feature = "v1_35")]
const VERSION: u32 = 35;
#[cfg(feature = "v1_36")]
const VERSION: u32 = 36;
#[cfg(feature = "v1_37")]
const VERSION: u32 = 37;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((command, [])) if command == "dump" => {
            println!("{}", serde_json::to_string_pretty(&dump()).unwrap());
        }
        Some((command, [out, dumps @ ..])) if command == "emit" && !dumps.is_empty() => {
            emit::run(std::path::Path::new(out), dumps);
        }
        #[cfg(feature = "compare")]
        Some((command, [golden])) if command == "compare" => {
            let dump = dump();
            compare::run(golden, dump["types"].as_object().expect("types"));
        }
        #[cfg(feature = "compare")]
        Some((command, [])) if command == "check" => check(),
        _ => {
            eprintln!(
                "usage: webop-k8s-schemas dump | emit OUT_DIR DUMP.json... | compare GOLDEN.yaml | check"
            );
            std::process::exit(2);
        }
    }
}

/// The converted schema of every type reachable from the roots, keyed by schema name.
fn dump() -> Value {
    let mut generator = schemars::SchemaGenerator::default();
    let roots = roots::register(&mut generator);
    let definitions = generator.definitions().clone();

    let mut types = BTreeMap::new();
    let mut pending: Vec<String> = roots.clone();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) || convert::HAND_WRITTEN.contains(&name.as_str()) {
            continue;
        }
        let definition = definitions
            .get(&name)
            .unwrap_or_else(|| panic!("no definition for {name}"));
        let mut refs = Vec::new();
        let mut schema = convert::convert(definition, &name, &mut refs);
        overlay::apply(&name, &mut schema);
        pending.extend(refs);
        types.insert(name, schema);
    }
    let types: serde_json::Map<String, Value> = types.into_iter().collect();
    let unmatched = overlay::unmatched(&types);
    json!({ "version": VERSION, "roots": roots, "types": types, "unmatched": unmatched })
}

/// Decodes webop's schema of every root for the compiled version, and checks that its fields are
/// the ones k8s-openapi serializes.
#[cfg(feature = "compare")]
fn check() {
    let dump = dump();
    let types = dump["types"].as_object().expect("types");
    let roots = dump["roots"].as_array().expect("roots");
    for ((rust, schema), name) in roots::webop_schemas().into_iter().zip(roots) {
        let ours: BTreeSet<&String> = schema.properties.iter().flat_map(|p| p.keys()).collect();
        let spec: BTreeSet<&String> = types[name.as_str().unwrap()]["properties"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.keys())
            .collect();
        assert_eq!(ours, spec, "{rust}: properties differ from the spec");
    }
    println!("Kubernetes 1.{VERSION}: {} roots decoded", roots.len());
}
