//! The model-based test of the CLI for any seed and length (`tests/sequence/`):
//!
//! ```sh
//! cargo run --example cli_sequences -- --seed 7 --steps 2000 [--length 50] [--checkpoint-every 100]
//! ```
//!
//! runs sequences of `--length` steps from `--seed` on (one seed each) until `--steps` steps ran,
//! prints what was checked, or the first failing sequence, shrunk, and exits non-zero.

#[path = "../tests/sequence/mod.rs"]
mod sequence;

use sequence::run::{self, Options};
use webop_cli::scaffold::Templates;

fn main() -> std::process::ExitCode {
    let mut seed = 1;
    let mut steps = 1000;
    let mut length = 50;
    let mut checkpoint_every = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || -> u64 {
            let raw = args.next().unwrap_or_default();
            raw.parse()
                .unwrap_or_else(|_| panic!("{flag} takes a number, not {raw:?}"))
        };
        match flag.as_str() {
            "--seed" => seed = value(),
            "--steps" => steps = value() as usize,
            "--length" => length = value() as usize,
            "--checkpoint-every" => checkpoint_every = Some(value() as usize),
            other => panic!("unknown flag {other}: --seed, --steps, --length, --checkpoint-every"),
        }
    }
    let templates = Templates::load().expect("the templates load");
    let options = Options {
        seed,
        length,
        checkpoint_every,
    };
    let count = steps.div_ceil(length.max(1));
    match run::many(&templates, options, count) {
        Ok(stats) => {
            println!("seed {seed}: {}", stats.report());
            std::process::ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!(
                "a sequence from seed {seed} on failed, shrunk to:\n{}",
                failure.report()
            );
            std::process::ExitCode::FAILURE
        }
    }
}
