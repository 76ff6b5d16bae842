//! Generates `core/src/schema/k8s/generated/` from what controller-gen writes for the Go types of
//! k8s.io/api: see `generate.sh`.
//!
//! Built with one `v1_*` feature (one Kubernetes version):
//! - `go-source DIR` writes the Go package controller-gen reads (`DIR/schemas.go`): a field of
//!   every type reachable from the roots, in k8s-openapi's type graph;
//! - `dump CRD.yaml` reads the CRD controller-gen wrote for it and prints each type's schema,
//!   with references to the other types put back, as JSON;
//! - `verify CRD.yaml` (feature `verify`) checks that webop's schema of every root, as compiled
//!   from the generated code, is the one controller-gen wrote.
//!
//! `emit OUT_DIR DUMP...` merges the dumps of every version into Rust source.

mod emit;
mod go_source;
mod graph;
mod references;
mod roots;
#[cfg(feature = "verify")]
mod verify;

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
        Some((command, [dir])) if command == "go-source" => {
            let (_, types) = graph();
            let path = std::path::Path::new(dir).join("schemas.go");
            std::fs::write(&path, go_source::render(&types))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        Some((command, [crd])) if command == "dump" => {
            println!("{}", serde_json::to_string_pretty(&dump(crd)).unwrap());
        }
        Some((command, [out, dumps @ ..])) if command == "emit" && !dumps.is_empty() => {
            emit::run(std::path::Path::new(out), dumps);
        }
        #[cfg(feature = "verify")]
        Some((command, [crd])) if command == "verify" => {
            verify::run(&written_schemas(crd), VERSION);
        }
        _ => {
            eprintln!(
                "usage: webop-k8s-schemas go-source DIR | dump CRD.yaml | emit OUT_DIR DUMP.json... | verify CRD.yaml"
            );
            std::process::exit(2);
        }
    }
}

/// k8s-openapi's definitions of the compiled version, and the roots with every type they reach.
fn graph() -> (BTreeMap<String, Value>, BTreeSet<String>) {
    let mut generator = schemars::SchemaGenerator::default();
    let roots = roots::register(&mut generator);
    let definitions: BTreeMap<String, Value> = generator
        .definitions()
        .iter()
        .map(|(name, schema)| (name.clone(), schema.clone()))
        .collect();
    let types = graph::reachable(&roots, &definitions);
    (definitions, types)
}

/// The schema of each type of the Go package, as controller-gen wrote it into `crd`: the
/// properties of the kind's spec, named by schema name.
fn written_schemas(crd: &str) -> references::Written {
    let text = std::fs::read_to_string(crd).unwrap_or_else(|e| panic!("{crd}: {e}"));
    let crd: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{crd}: {e}"));
    crd.pointer("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties")
        .and_then(Value::as_object)
        .cloned()
        .expect("the spec's properties")
}

/// Every generated type's schema, with references, keyed by schema name.
fn dump(crd: &str) -> Value {
    let (definitions, types) = graph();
    let written = written_schemas(crd);
    let expected: BTreeSet<&String> = types.iter().collect();
    let found: BTreeSet<&String> = written.keys().collect();
    assert_eq!(expected, found, "{crd} is not of this version's types");
    let mut schemas = serde_json::Map::new();
    for name in types.iter().filter(|n| !graph::KNOWN.contains(&n.as_str())) {
        let mut refs = BTreeSet::new();
        let schema = references::restore(
            &definitions[name],
            &written[name],
            name,
            &written,
            &mut refs,
        );
        schemas.insert(name.clone(), schema);
    }
    let mut generator = schemars::SchemaGenerator::default();
    let roots = roots::register(&mut generator);
    json!({ "version": VERSION, "roots": roots, "types": schemas })
}
