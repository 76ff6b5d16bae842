//! The model-based test of the CLI: random sequences of webop commands (seeded, reproducible) as
//! people run them, with `cargo fmt`, their own edits and `--force` re-runs in between, and the
//! invariants that must hold after every step (`check`) and at checkpoints (`checkpoint`).
//! `tests/cli/cli_sequences.rs` runs a fixed seed; `examples/cli_sequences.rs` any seed and length.

#![allow(dead_code)] // the test and the example use different parts

pub mod check;
pub mod checkpoint;
pub mod generate;
pub mod report;
pub mod rng;
pub mod run;
pub mod tree;
