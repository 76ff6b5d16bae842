//! The YAML emitter: byte-for-byte what controller-gen writes.
//!
//! controller-gen (v0.21, `genall.WriteYAML`) turns every object into JSON, reads that JSON back
//! with gopkg.in/yaml.v2 into `map[string]any` (integral numbers become `int`, others
//! `float64`), and writes it with yaml.v2's `Marshal`. This module reproduces that pipeline for a
//! [`serde_json::Value`]:
//!
//! - map keys in yaml.v2's order (embedded numbers compared numerically, see `key_order`);
//! - strings plain when they would read back as strings, double-quoted when they would not
//!   (`"true"`, `"1"`, `"y"`, `""`, timestamps, `1:30`), single-quoted when plain text would be
//!   misread as YAML syntax (`'- x'`, `'a: b'`, leading or trailing spaces), double-quoted with
//!   escapes when they hold unprintable characters, and `|-` / `|` / `|+` literal blocks when they
//!   hold line breaks;
//! - long plain and quoted scalars folded at a space once a line passes 80 columns;
//! - block collections indented by two, sequences in mappings not indented, `[]` / `{}` when
//!   empty;
//! - numbers as Go prints them after the JSON round trip (`10.0` → `10`, `1e-7` → `1e-07`).

mod analysis;
mod chars;
mod emitter;
mod key_order;
mod number;
mod resolve;
mod scalar;
mod styles;
mod timestamp;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use key_order::compare_keys;

/// `value` as controller-gen's sigs.k8s.io/yaml (go-yaml v2 `Marshal`) renders it.
pub fn to_string(value: &Value) -> String {
    emitter::Emitter::document(value)
}

/// Each value as a YAML document preceded by `---\n`, as controller-gen's `WriteYAML` writes a file.
pub fn documents(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| format!("---\n{}", to_string(v)))
        .collect()
}
