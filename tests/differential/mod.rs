//! Differential testing of webop against controller-gen: random API types, each written as Go
//! with kubebuilder markers and as Rust with webop's attributes, go through both generators, and
//! the CRDs must be the same bytes; a real API server must accept or reject both alike.
//!
//! - `rng`, `words`: the deterministic randomness and the vocabulary.
//! - `model`: a case (a kind and its named types with their attributes).
//! - `generate`: random cases with legal attributes.
//! - `go`, `rust`: a case as Go source and as Rust source.
//! - `project`: the Go module and the Rust crate of all cases, and the runs of the generators.
//! - `compare`, `apiserver`: the verdicts.
//!
//! `tests/differential.rs` runs a fixed seed; `cargo run --example differential` runs any.

pub mod apiserver;
pub mod compare;
#[path = "../support/controller_gen.rs"]
pub mod controller_gen;
pub mod generate;
pub mod go;
pub mod model;
pub mod project;
pub mod rng;
pub mod rust;
pub mod words;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use compare::{Tally, Verdict};
use model::Case;

/// What to run.
pub struct Config {
    pub cases: usize,
    pub seed: u64,
    /// Where the Go module, the Rust crate, the outputs and the differing cases go. The crate
    /// stays between runs so an unchanged case is not compiled again.
    pub work: PathBuf,
    pub controller_gen: PathBuf,
    /// The control plane's binaries; without them no CRD goes to an API server.
    pub assets: Option<webop::envtest::Assets>,
}

impl Config {
    /// `<target dir>/differential`, beside the builds it reuses.
    pub fn default_work_dir() -> PathBuf {
        project::target_dir().join("differential")
    }
}

/// What a run found, and how long its steps took.
pub struct Report {
    pub tally: Tally,
    pub timings: Vec<(&'static str, Duration)>,
    /// Where the differing cases were written.
    pub differences: PathBuf,
}

impl Report {
    pub fn timings(&self) -> String {
        let steps: Vec<String> = self
            .timings
            .iter()
            .map(|(step, time)| format!("{step} {:.1} s", time.as_secs_f64()))
            .collect();
        let total: Duration = self.timings.iter().map(|(_, t)| *t).sum();
        format!("{} (total {:.1} s)", steps.join(", "), total.as_secs_f64())
    }
}

pub fn run(config: &Config) -> Report {
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |step: &'static str, timings: &mut Vec<(&'static str, Duration)>| {
        timings.push((step, clock.elapsed()));
        clock = Instant::now();
    };
    let cases: Vec<Case> = (0..config.cases)
        .map(|index| generate::case(config.seed, index))
        .collect();
    let go_module = config.work.join("go");
    project::write_go_module(&go_module, &cases);
    lap("generate", &mut timings);
    let go = project::run_controller_gen(
        &config.controller_gen,
        &go_module,
        &config.work.join("controller-gen"),
        &cases,
    );
    lap("controller-gen", &mut timings);
    let rust = project::run_rust_cases(&config.work, &config.work.join("webop"), &cases);
    lap("webop (build and run)", &mut timings);

    let differences = config.work.join("differences");
    if differences.exists() {
        std::fs::remove_dir_all(&differences).unwrap();
    }
    let mut tally = Tally::default();
    let verdicts: Vec<Verdict> = cases
        .iter()
        .map(|case| compare::verdict(case, &go, &rust))
        .collect();
    for (case, verdict) in cases.iter().zip(&verdicts) {
        match verdict {
            Verdict::Same { .. } => tally.same += 1,
            Verdict::BothRefused { .. } => tally.both_refused += 1,
            Verdict::Differs(why) => {
                compare::write_difference(&differences, case, &go, &rust, why);
                tally.differ.push((case.name.clone(), why.clone()));
            }
        }
    }
    if let Some(assets) = &config.assets {
        admit_all(assets, &cases, &verdicts, &go, &rust, &mut tally);
        lap("API server", &mut timings);
    }
    Report {
        tally,
        timings,
        differences,
    }
}

/// Sends every CRD to a real API server: a case's two files when they differ, its one file
/// otherwise.
fn admit_all(
    assets: &webop::envtest::Assets,
    cases: &[Case],
    verdicts: &[Verdict],
    go: &project::Outcome,
    rust: &project::Outcome,
    tally: &mut Tally,
) {
    use apiserver::Admission;
    use webop::envtest::{Backend, Environment};

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let env = Environment::builder()
            .backend(Backend::Real(assets.clone()))
            .start()
            .await
            .expect("a control plane starts");
        let client = env.client();
        for (case, verdict) in cases.iter().zip(verdicts) {
            let (go_yaml, rust_yaml) = match verdict {
                Verdict::Same { yaml, .. } => (yaml.clone(), yaml.clone()),
                Verdict::Differs(_) => {
                    match (go.files.get(&case.name), rust.files.get(&case.name)) {
                        (Some((_, go)), Some((_, rust))) => (go.clone(), rust.clone()),
                        _ => continue,
                    }
                }
                Verdict::BothRefused { .. } => continue,
            };
            let go_admission = apiserver::admit(&client, &go_yaml).await;
            let rust_admission = if rust_yaml == go_yaml {
                go_admission.clone()
            } else {
                apiserver::admit(&client, &rust_yaml).await
            };
            let name = case.name.clone();
            match (go_admission, rust_admission) {
                (Admission::Accepted, Admission::Accepted) => tally.api_accepted += 1,
                (Admission::Rejected(reason), Admission::Rejected(_)) => {
                    tally.api_rejected_alike.push((name, reason));
                }
                (Admission::Rejected(reason), Admission::Accepted) => tally
                    .api_disagree
                    .push((name, format!("only controller-gen's is rejected: {reason}"))),
                (Admission::Accepted, Admission::Rejected(reason)) => tally
                    .api_disagree
                    .push((name, format!("only webop's is rejected: {reason}"))),
            }
        }
    });
}
