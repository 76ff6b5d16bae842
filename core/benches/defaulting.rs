//! What a defaulting review costs as the object grows in the ways issue 29's attacker grew it:
//! fields the type drops (each one a removal the patch must leave out), and labels (each one
//! kept through decoding, defaulting and the patch). Prints one line per size; the time per
//! field stays flat when the work is linear.
//!
//! `cargo bench -p webop-core --bench defaulting --features webhook`

use std::time::Instant;

#[path = "../tests/support/mod.rs"]
mod support;

use serde_json::{Value, json};
use support::{config_map, webhooks};

fn review(object: Value) -> Vec<u8> {
    support::review("admission.k8s.io/v1", object)
}

fn with_unknown_fields(count: usize) -> Vec<u8> {
    let mut object = config_map();
    for i in 0..count {
        object[format!("unknown{i}")] = json!(i);
    }
    review(object)
}

fn with_labels(count: usize) -> Vec<u8> {
    let labels: serde_json::Map<String, Value> = (0..count)
        .map(|i| (format!("l{i:06}"), json!(format!("v{i:06}"))))
        .collect();
    let mut object = config_map();
    object["metadata"]["labels"] = Value::Object(labels);
    review(object)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let webhooks = webhooks();
    let path = support::MUTATE;
    let cases = [10_000, 20_000, 40_000, 60_000]
        .map(|n| (format!("{n} unknown fields"), n, with_unknown_fields(n)))
        .into_iter()
        .chain([69_000, 138_000, 276_000].map(|n| (format!("{n} labels"), n, with_labels(n))));
    for (what, count, body) in cases {
        let started = Instant::now();
        let answered = runtime.block_on(webhooks.handle(path, &body));
        let took = started.elapsed();
        let allowed = answered.is_some_and(|(_, review)| review["response"]["allowed"] == true);
        assert!(allowed, "{what}: not admitted");
        println!(
            "defaulting, {what:>22} ({:>5.1} MB): {:>8.1} ms, {:>6.0} ns per field",
            body.len() as f64 / 1e6,
            took.as_secs_f64() * 1e3,
            took.as_nanos() as f64 / count as f64,
        );
    }
}
