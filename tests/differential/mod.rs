//! Differential testing of webop against controller-gen: random API types, each written as Go
//! with kubebuilder markers and as Rust with webop's attributes, go through both generators, and
//! the CRDs must be the same bytes; a real API server must accept or reject both alike.
//!
//! - `rng`, `words`: the deterministic randomness and the vocabulary.
//! - `model`: a case (a kind and its named types with their attributes).
//! - `generate`: random cases with legal attributes.
//! - `go`, `rust`: a case as Go source and as Rust source.
//! - `project`: the Go module and the Rust crates of all cases, and the runs of the generators.
//! - `compare`, `apiserver`: the verdicts. A case both generators refuse, or one refuses and the
//!   API server rejects the other's CRD for, counts as agreement.
//!
//! `tests/manifests/random_kinds.rs` runs a fixed seed; `cargo run --example differential` runs any.

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

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use compare::{Admissions, Tally, Verdict};
use model::Case;

/// What to run.
pub struct Config {
    pub cases: usize,
    pub seed: u64,
    /// Where the Go module, the Rust crates, the outputs and the differing cases go. The crates
    /// stay between runs, so the same cases are not compiled again.
    pub work: PathBuf,
    pub controller_gen: PathBuf,
    /// The control plane's binaries; without them no CRD goes to an API server.
    pub assets: Option<webop_envtest::Assets>,
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

/// How many cases and which seed the test suite runs (`tests/manifests/random_kinds.rs`):
/// `WEBOP_DIFF_CASES` (default 300) and `WEBOP_DIFF_SEED`.
pub fn suite_cases_and_seed() -> (usize, u64) {
    (
        env_number("WEBOP_DIFF_CASES", 300),
        env_number("WEBOP_DIFF_SEED", 20_260_801),
    )
}

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
        Err(_) => default,
    }
}

/// Generates `cases` cases of `seed` and builds (and runs) their Rust crates in `work`, as [`run`]
/// does, without controller-gen: a later run of the same cases finds them built.
#[allow(dead_code)] // `examples/differential.rs --build-suite` uses it, the test suite does not
pub fn build_rust_cases(cases: usize, seed: u64, work: &std::path::Path) {
    project::run_rust_cases(work, &work.join("webop"), &generate_cases(cases, seed));
}

/// The first `count` cases of `seed`.
fn generate_cases(count: usize, seed: u64) -> Vec<Case> {
    (0..count)
        .map(|index| generate::case(seed, index))
        .collect()
}

/// Generates the cases of `config`, runs both generators on them, compares their CRDs and, with
/// assets, has a real API server judge them.
pub fn run(config: &Config) -> Report {
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |step: &'static str, timings: &mut Vec<(&'static str, Duration)>| {
        timings.push((step, clock.elapsed()));
        clock = Instant::now();
    };
    let cases = generate_cases(config.cases, config.seed);
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

    let verdicts: Vec<Verdict> = cases
        .iter()
        .map(|case| compare::verdict(case, &go, &rust))
        .collect();
    let admissions = match &config.assets {
        Some(assets) => {
            let admissions = admit_all(assets, &cases, &verdicts, &go, &rust);
            lap("API server", &mut timings);
            admissions
        }
        None => BTreeMap::new(),
    };
    let differences = config.work.join("differences");
    if differences.exists() {
        std::fs::remove_dir_all(&differences).unwrap();
    }
    let mut tally = Tally::default();
    for (case, verdict) in cases.iter().zip(&verdicts) {
        let differing = tally.differ.len();
        tally.record(&case.name, verdict, admissions.get(&case.name));
        if let Some((_, why)) = tally.differ.get(differing) {
            compare::write_difference(&differences, case, &go, &rust, why);
        }
    }
    Report {
        tally,
        timings,
        differences,
    }
}

/// Sends every CRD to a real API server: a case's two files when they differ, its one file when
/// they are the same or the other generator refused the case.
fn admit_all(
    assets: &webop_envtest::Assets,
    cases: &[Case],
    verdicts: &[Verdict],
    go: &project::Outcome,
    rust: &project::Outcome,
) -> BTreeMap<String, Admissions> {
    use webop_envtest::{Backend, Environment};

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
        let mut admissions = BTreeMap::new();
        for (case, verdict) in cases.iter().zip(verdicts) {
            let file = |outcome: &project::Outcome| {
                outcome.files.get(&case.name).map(|(_, yaml)| yaml.clone())
            };
            let (go_yaml, rust_yaml) = match verdict {
                Verdict::Same { yaml } => (Some(yaml.clone()), None),
                Verdict::Differs(_) => (file(go), file(rust)),
                Verdict::OneRefused { other_yaml, .. } => (Some(other_yaml.clone()), None),
                Verdict::BothRefused => continue,
            };
            let go_admission = match go_yaml {
                Some(yaml) => Some(apiserver::admit(&client, &yaml).await),
                None => None,
            };
            let rust_admission = match (verdict, rust_yaml) {
                // The same bytes get the same answer.
                (Verdict::Same { .. }, _) => go_admission.clone(),
                (_, Some(yaml)) => Some(apiserver::admit(&client, &yaml).await),
                (_, None) => None,
            };
            admissions.insert(case.name.clone(), (go_admission, rust_admission));
        }
        admissions
    })
}
