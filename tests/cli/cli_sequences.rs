//! The model-based test of the CLI with its fixed seeds (see `tests/sequence/`): random sequences
//! of webop commands, `cargo fmt`, the user's edits and `--force` re-runs, with every invariant
//! checked after every step, and one sequence ending in a checkpoint that builds, lints and tests
//! the project. Other seeds and lengths: `cargo run --example cli_sequences -- --seed N --steps M`.

#[path = "../sequence/mod.rs"]
mod sequence;

use sequence::run::{self, Options};
use webop_cli::scaffold::Templates;

/// Sequences of steps, no builds: the invariants after every step.
#[test]
fn sequences_of_commands_keep_every_invariant() {
    let templates = Templates::load().unwrap();
    let options = Options {
        seed: 24,
        length: 40,
        checkpoint_every: None,
    };
    match run::many(&templates, options, 4) {
        Ok(stats) => println!("{}", stats.report()),
        Err(failure) => panic!("seed {}:\n{}", options.seed, failure.report()),
    }
}

/// One sequence whose project is built, linted and tested at its end.
#[test]
fn a_sequence_ends_in_a_project_that_builds_lints_and_passes_its_tests() {
    let templates = Templates::load().unwrap();
    let options = Options {
        seed: 2024,
        length: 25,
        checkpoint_every: Some(25),
    };
    match run::many(&templates, options, 1) {
        Ok(stats) => println!("{}", stats.report()),
        Err(failure) => panic!("seed {}:\n{}", options.seed, failure.report()),
    }
}
