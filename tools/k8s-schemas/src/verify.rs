//! `verify CRD.yaml`: webop's schema of every root, decoded from the generated code and flattened
//! as a CRD embeds it, must be the schema controller-gen wrote for the root's Go type, byte for
//! byte once both are JSON. Every generated type is reachable from a root, so this checks them
//! all, and the inlining of references (`core/src/schema/k8s/decode.rs`) with them.

use serde_json::Value;

use crate::references::Written;
use crate::roots;

pub fn run(written: &Written, version: u32) {
    let mut generator = schemars::SchemaGenerator::default();
    let names = roots::register(&mut generator);
    let mut failures = Vec::new();
    for ((rust, schema), name) in roots::webop_schemas().into_iter().zip(&names) {
        let ours = serde_json::to_value(&schema).unwrap();
        let theirs = &written[name.as_str()];
        if !same(&ours, theirs) {
            failures.push(format!("{rust}: {}", first_difference(&ours, theirs, "")));
        }
    }
    assert!(
        failures.is_empty(),
        "Kubernetes 1.{version}: webop's schemas differ from controller-gen's:\n{}",
        failures.join("\n")
    );
    println!(
        "Kubernetes 1.{version}: {} roots as controller-gen writes them",
        names.len()
    );
}

/// JSON equality, but for numbers, which compare by value: webop's model keeps bounds as `f64`
/// (`0.0`) where controller-gen's YAML has `0`; webop's YAML writes both as Go does.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Where two schemas first differ, as a JSON pointer with both values.
fn first_difference(ours: &Value, theirs: &Value, at: &str) -> String {
    if let (Value::Object(a), Value::Object(b)) = (ours, theirs) {
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for key in keys {
            let equal = match (a.get(key), b.get(key)) {
                (Some(x), Some(y)) => same(x, y),
                (x, y) => x == y,
            };
            if !equal {
                let at = format!("{at}/{key}");
                return match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => first_difference(x, y, &at),
                    (x, y) => format!("{at}: webop {x:?}, controller-gen {y:?}"),
                };
            }
        }
    }
    format!("{at}: webop {ours}, controller-gen {theirs}")
}
