//! Differential testing of webop against controller-gen, for any number of cases and any seed:
//!
//! ```sh
//! cargo run --example differential -- --cases 2000 --seed 7 [--work DIR]
//! ```
//!
//! Prints a summary and writes each differing case (Go source, Rust source, both CRDs and why)
//! to `<work>/differences/<case>/`. With `KUBEBUILDER_ASSETS` set, every CRD also goes to a real
//! API server. Exits with 1 when webop and controller-gen disagree. The test suite runs a fixed
//! seed: `tests/manifests/random_kinds.rs`.
//!
//! `--build-suite` builds only the Rust crates of the suite's cases, in the suite's work
//! directory, so that the suite finds them built (`.ci/run` does it before the tests run).

#[path = "../tests/differential/mod.rs"]
mod differential;

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut cases = 300;
    let mut seed = 1;
    let mut work = differential::Config::default_work_dir();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--cases" => {
                cases = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--cases takes a number"))
            }
            "--seed" => {
                seed = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--seed takes a number"))
            }
            "--work" => work = value().into(),
            "--build-suite" => {
                let (cases, seed) = differential::suite_cases_and_seed();
                let work = differential::Config::default_work_dir();
                differential::build_rust_cases(cases, seed, &work);
                println!("built the Rust crates of the suite's {cases} cases (seed {seed})");
                return ExitCode::SUCCESS;
            }
            other => usage(&format!("unknown argument {other}")),
        }
    }
    let controller_gen = differential::controller_gen::path();
    if !controller_gen.is_file() {
        usage(&format!(
            "controller-gen is not at {} (tools/k8s-assets builds it; or set CONTROLLER_GEN)",
            controller_gen.display()
        ));
    }
    let assets = webop_envtest::Assets::from_env();
    if assets.is_none() {
        eprintln!("note: KUBEBUILDER_ASSETS is not set, so no CRD goes to an API server");
    }
    let config = differential::Config {
        cases,
        seed,
        work,
        controller_gen,
        assets,
    };
    let report = differential::run(&config);
    println!("seed {seed}: {}", report.tally.summary(cases));
    println!("{}", report.timings());
    if report.tally.agrees() {
        ExitCode::SUCCESS
    } else {
        println!("differing cases: {}", report.differences.display());
        ExitCode::FAILURE
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "error: {problem}\nusage: differential [--cases N] [--seed S] [--work DIR] | --build-suite"
    );
    std::process::exit(2)
}
