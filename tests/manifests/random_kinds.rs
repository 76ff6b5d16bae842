//! Differential testing against controller-gen (`differential/`): a fixed seed's random kinds,
//! as Go with kubebuilder markers and as Rust with webop's attributes, must give the same CRD
//! bytes, and a real API server must accept or reject both alike.
//!
//! `WEBOP_DIFF_CASES` (default 300) and `WEBOP_DIFF_SEED` tune the run; `cargo run --example
//! differential -- --cases 2000 --seed 7` runs any other. The differing cases are written to
//! `<target dir>/differential/differences/<case>/`.
//!
//! As every test against the reference tools: with `KUBEBUILDER_ASSETS` set, controller-gen and
//! the control plane's binaries are required; without it the test is skipped.

use crate::differential;

#[test]
fn controller_gen_and_webop_write_the_same_crds_for_random_kinds() {
    let Some(assets) = webop_envtest::Assets::from_env() else {
        eprintln!(
            "skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets builds controller-gen and \
             the control plane; or run `cargo run --example differential`)"
        );
        return;
    };
    let Some(controller_gen) = differential::controller_gen::tool() else {
        return;
    };
    let (cases, seed) = differential::suite_cases_and_seed();
    let config = differential::Config {
        cases,
        seed,
        work: differential::Config::default_work_dir(),
        controller_gen,
        assets: Some(assets),
    };
    let report = differential::run(&config);
    eprintln!(
        "seed {}: {}{}",
        config.seed,
        report.tally.summary(config.cases),
        report.timings()
    );
    assert!(
        report.tally.agrees(),
        "webop and controller-gen disagree (seed {}); the cases are in {}:\n{}",
        config.seed,
        report.differences.display(),
        report.tally.summary(config.cases)
    );
}
