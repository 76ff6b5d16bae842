//! `cargo bench --bench operator [-- --objects N]`: the generated
//! WebApp controller against a faithful kube-rs port of the tutorial's loop, N WebApps (default
//! 1000) each, on testkit API servers. Prints one line per figure:
//!
//! The tutorial's loop (`seed`) is ported as a kube-rs user writes it: its `r.Get` calls are
//! GETs. The `cached_seed` line is the same loop reading informer caches, as
//! controller-runtime's client does in Go.
//!
//! - `converge_requests_per_object`: requests the reconciler's client sent until every WebApp
//!   is Running, per WebApp (list/watch, applies, status writes, events: everything);
//! - `converge_requests <reconciler>`: those requests by kind (`list`, `watch`, `get`, `apply`,
//!   `status`, `event`, `other`);
//! - `converge_seconds`: simulated seconds until then (a paused Tokio clock; both clients are
//!   limited to client-go's 20 QPS, burst 30, so this is mostly requests / 20);
//! - `steady_writes_per_minute`: writes during a simulated idle minute after convergence;
//! - `peak_rss_mib`: VmHWM of the release build of the generated operator, run as its own
//!   process against a loopback testkit with N WebApps and their children cached, after every
//!   WebApp's spec has changed (and, as `converged=`, before that);
//! - `binary_mib`: the size of that release binary, stripped.
//!
//! `-- --no-binary` skips the release build (and so the last two figures); `-- --binary-only`
//! measures only those two;
//! `WEBOP_BENCH_OPERATOR=<path>` uses that release build of the generated operator instead of
//! building one (e.g. the one `benches/first_green.sh --sizes --keep` built).
//!
//! The generated controller is the golden project's (testdata/webapp-operator) own source,
//! compiled in with `#[path]` modules: its API types become `crate::webapp_operator_api` via
//! `extern crate self`, so the files compile unchanged. A path dependency is not possible: the
//! golden is a workspace of its own inside this one, which Cargo refuses.

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

// The golden's files, as they are generated (`rustfmt::skip`: `cargo fmt` must not rewrite the
// golden through these modules; the golden test checks its formatting).
extern crate self as webapp_operator_api;
#[rustfmt::skip]
#[path = "../../testdata/webapp-operator/api/src/v1/mod.rs"]
pub mod v1;
#[rustfmt::skip]
#[path = "../../testdata/webapp-operator/src/controller/webapp_controller.rs"]
mod webapp_controller;

mod cluster;
mod rss;
mod seed;

use std::sync::Arc;
use std::time::Duration;

use webop::manager::{Manager, Options};

/// How long (simulated) a reconciler gets to bring every WebApp to Running.
const CONVERGE_LIMIT: Duration = Duration::from_secs(3600);

/// One reconciler's figures.
struct Figures {
    requests_per_object: f64,
    converge_seconds: f64,
    steady_writes_per_minute: u64,
    /// The requests until convergence by kind (`list=3 watch=3 apply=2000 ...`).
    converge_requests: String,
    /// WebApps Running when convergence was measured (all of them unless the limit ran out).
    running: usize,
}

impl Figures {
    /// Whether every one of `objects` WebApps got to Running within the limit; if not, the
    /// figures are lower bounds.
    fn converged(&self, objects: usize) -> bool {
        self.running == objects
    }

    /// `12.5`, or `>3600` when the limit ran out before every WebApp was Running.
    fn converge_seconds(&self, objects: usize) -> String {
        let bound = if self.converged(objects) { "" } else { ">" };
        format!("{bound}{:.0}", self.converge_seconds)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Reconciler {
    Webop,
    Seed(seed::Reads),
}

fn main() {
    let objects = objects_from_args();
    if std::env::args().any(|a| a == "--binary-only") {
        eprintln!("operator bench: the release binary with {objects} WebApps");
        report_binary(objects);
        return;
    }
    eprintln!("operator bench: {objects} WebApps per reconciler");
    let webop = simulate(Reconciler::Webop, objects);
    let seed = simulate(Reconciler::Seed(seed::Reads::Api), objects);
    let cached = simulate(Reconciler::Seed(seed::Reads::Cache), objects);
    let all = [("webop", &webop), ("seed", &seed), ("cached_seed", &cached)];
    for (name, figures) in all {
        if !figures.converged(objects) {
            println!(
                "not_converged {name}: {} of {objects} WebApps Running after {:.0} simulated seconds",
                figures.running,
                CONVERGE_LIMIT.as_secs_f64()
            );
        }
    }
    println!(
        "converge_requests_per_object webop={:.2} seed={:.2} ratio={:.2}",
        webop.requests_per_object,
        seed.requests_per_object,
        webop.requests_per_object / seed.requests_per_object
    );
    for (name, figures) in all {
        println!("converge_requests {name}: {}", figures.converge_requests);
    }
    // A reconciler that did not converge makes its figures lower bounds: say so.
    println!(
        "converge_seconds webop={} seed={} ratio={}{:.2}",
        webop.converge_seconds(objects),
        seed.converge_seconds(objects),
        if seed.converged(objects) { "" } else { "<" },
        webop.converge_seconds / seed.converge_seconds
    );
    println!(
        "steady_writes_per_minute webop={} seed={}",
        webop.steady_writes_per_minute, seed.steady_writes_per_minute
    );
    // The same loop with controller-runtime's cache-backed reads: fewer GETs, same writes.
    println!(
        "cached_seed converge_requests_per_object={:.2} ratio={:.2} converge_seconds={} steady_writes_per_minute={}",
        cached.requests_per_object,
        webop.requests_per_object / cached.requests_per_object,
        cached.converge_seconds(objects),
        cached.steady_writes_per_minute
    );
    if std::env::args().any(|a| a == "--no-binary") {
        println!("peak_rss_mib skipped: --no-binary");
        return;
    }
    report_binary(objects);
}

/// `peak_rss_mib` and `binary_mib` of the generated operator's release build.
fn report_binary(objects: usize) {
    match rss::build_release_operator() {
        Ok(binary) => {
            match rss::peak_rss_mib(&binary.path, objects) {
                Ok(peak) => println!(
                    "peak_rss_mib webop={:.1} converged={:.1} (after every spec changed; once converged)",
                    peak.updated, peak.converged
                ),
                Err(why) => println!("peak_rss_mib skipped: {why}"),
            }
            println!(
                "binary_mib webop={:.1} (stripped release build of the generated operator)",
                binary.stripped_bytes as f64 / 1_048_576.0
            );
        }
        Err(why) => {
            println!("peak_rss_mib skipped: {why}");
            println!("binary_mib skipped: {why}");
        }
    }
}

/// `--objects N` from the arguments Cargo passes through (it adds `--bench`).
fn objects_from_args() -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--objects")
        .and_then(|i| args.get(i + 1))
        .map(|n| n.parse().expect("--objects takes a positive number"))
        .unwrap_or(1000)
}

/// Runs `reconciler` over `objects` WebApps on a paused clock and measures it.
fn simulate(reconciler: Reconciler, objects: usize) -> Figures {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async move {
        let server = cluster::server();
        let driver = server.client();
        cluster::create_webapps(&driver, objects).await;
        tokio::spawn(cluster::simulate_deployment_controller(driver.clone()));

        let progress = cluster::Running::watch(&driver);
        let requests = Arc::new(cluster::Requests::default());
        let client = cluster::reconciler_client(&server, requests.clone());
        let shutdown = webop::manager::Shutdown::default();
        let started = tokio::time::Instant::now();
        let reconciling = match reconciler {
            Reconciler::Webop => {
                let manager = Manager::with_client(client, Options::default(), "bench");
                let stop = manager.clone();
                let stopped = shutdown.wait();
                tokio::spawn(async move {
                    stopped.await;
                    stop.shutdown();
                });
                tokio::spawn(webapp_controller::run(manager))
            }
            Reconciler::Seed(reads) => {
                let clock = seed::SimulatedClock::start();
                tokio::spawn(seed::run(reads, client, clock, shutdown.wait()))
            }
        };

        // The tutorial's loop may never converge: each status write re-queues its own object at
        // once, and with one worker some objects can wait behind that loop forever.
        let mut running = 0;
        while started.elapsed() < CONVERGE_LIMIT {
            running = progress.count();
            if running == objects {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        let converge_seconds = started.elapsed().as_secs_f64();
        let requests_per_object = requests.total() as f64 / objects as f64;
        let converge_requests = requests.breakdown();

        requests.reset();
        tokio::time::sleep(Duration::from_secs(60)).await;
        let steady_writes_per_minute = requests.writes();

        shutdown.trigger();
        let _ = tokio::time::timeout(Duration::from_secs(60), reconciling).await;
        Figures {
            requests_per_object,
            converge_seconds,
            steady_writes_per_minute,
            converge_requests,
            running,
        }
    })
}
