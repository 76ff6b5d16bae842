//! `cargo bench --bench peer [-- --objects N] [--qps Q] [--idle S] [--profile P]`: webop's
//! generated WebApp operator (testdata/webapp-operator, built with Cargo profile P: release by
//! default, dev in CI) side by side with the same operator in Go on controller-runtime
//! (benches/peer), one after the other on one real control plane (`KUBEBUILDER_ASSETS`: etcd,
//! kube-apiserver, kube-controller-manager, kube-scheduler and kwok, so Deployments become
//! available). Each operator runs as its own process and user, in a namespace of its own that
//! starts empty:
//!
//! 1. N WebApps (default 1000) are created; the operator starts; once it has written its first
//!    status, one more WebApp (`probe`) is created, while the initial list is still being
//!    worked through; the run waits until all N + 1 are Running with every replica available;
//! 2. S seconds idle (default 60); 3. every spec goes from 1 to 2 replicas, and the run waits
//!    for convergence again; 4. every WebApp is deleted, and the run waits until the garbage
//!    collector has removed their Deployments, Services and Pods.
//!
//! Both operators get the same client budget (`--qps`, default 100, burst twice that: webop's
//! default is client-go's 20, controller-runtime's no client-side limit) and one worker each
//! (both defaults). Requests come from the API server's audit log, by the operator's user;
//! memory and CPU from /proc. Prints `peer_<figure> webop=X go=Y ratio=Z` (webop / go), and
//! exits with 1 if an operator did not get through a phase within its limit.
//! `WEBOP_PEER_WEBOP` and `WEBOP_PEER_GO` name prebuilt binaries.

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

// The golden's API types, as generated (see benches/operator/main.rs).
extern crate self as webapp_operator_api;
#[rustfmt::skip]
#[path = "../../testdata/webapp-operator/api/src/v1/mod.rs"]
pub mod v1;

mod audit;
// Only `lock` is used here: the tests' generated projects share the target directory.
#[allow(dead_code)]
#[path = "../../tests/support/build_lock.rs"]
mod build_lock;
mod process;
mod workload;

use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;
use kube::Api;
use process::{Operator, Profile, Usage};
use webop_envtest::{Assets, Backend, ControlPlane, Environment};
use workload::{Progress, wait_until};

/// The WebApp created during the initial list, whose first reconcile is timed.
const PROBE: &str = "probe";

/// One operator's figures; `None` where it did not get there within the limit.
#[derive(Debug, Default)]
struct Figures {
    converge_seconds: Option<f64>,
    first_reconcile_seconds: Option<f64>,
    /// WebApps already reconciled when the probe was created.
    reconciled_before_probe: usize,
    update_seconds: Option<f64>,
    delete_seconds: Option<f64>,
    converge_requests_per_object: f64,
    requests_per_object: f64,
    idle_writes_per_minute: f64,
    usage: Usage,
    requests_by_verb: String,
}

impl Figures {
    /// Whether every phase ended within its limit.
    fn finished(&self) -> bool {
        [
            self.converge_seconds,
            self.first_reconcile_seconds,
            self.update_seconds,
            self.delete_seconds,
        ]
        .iter()
        .all(Option::is_some)
    }
}

fn main() {
    let objects: usize = argument("--objects").unwrap_or(1000);
    let qps: u32 = argument("--qps").unwrap_or(100);
    let idle = Duration::from_secs(argument("--idle").unwrap_or(60));
    let profile =
        argument::<String>("--profile").map_or(Ok(Profile::Release), |name| Profile::parse(&name));
    let profile = profile.unwrap_or_else(|e| panic!("{e}"));
    let Some(assets) = Assets::from_env() else {
        println!("peer bench skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets)");
        return;
    };
    let binaries = [Operator::Webop, Operator::Go].map(|operator| {
        let binary = operator.build(profile).unwrap_or_else(|e| panic!("{e}"));
        (operator, binary)
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let figures = runtime.block_on(async {
        let crds =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/webapp-operator/config/crd/bases");
        let env = Environment::builder()
            .backend(Backend::Real(assets))
            .crd_dir(crds)
            .controller_manager(true)
            .kwok(true)
            .start()
            .await
            .expect("the control plane starts");
        let plane = env.control_plane().expect("a real control plane");
        // Room for every Pod at 2 replicas.
        workload::add_nodes_for(&env.client(), 2 * (objects + 1))
            .await
            .expect("kwok nodes");
        eprintln!(
            "peer bench: {objects} WebApps per operator on {}",
            plane.describe()
        );
        let mut figures = Vec::new();
        for (operator, binary) in &binaries {
            figures.push(run(plane, *operator, binary, objects, qps, idle).await);
        }
        figures
    });
    println!("peer_webop_profile {}", profile.cargo_name());
    report(&figures[0], &figures[1], objects);
    let unfinished: Vec<&str> = figures
        .iter()
        .zip(["webop", "go"])
        .filter(|(figures, _)| !figures.finished())
        .map(|(_, name)| name)
        .collect();
    if !unfinished.is_empty() {
        eprintln!(
            "peer bench: {} did not get through every phase in time (see its log in target/peer/)",
            unfinished.join(" and ")
        );
        std::process::exit(1);
    }
}

/// `--name value` from the arguments Cargo passes through.
fn argument<T: std::str::FromStr>(name: &str) -> Option<T> {
    let args: Vec<String> = std::env::args().collect();
    let value = args.iter().position(|a| a == name).map(|i| &args[i + 1]);
    value.map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} {v}: not a value it takes"))
    })
}

/// One operator through the four phases, in namespace `peer-<name>` as user `peer-<name>`.
async fn run(
    plane: &ControlPlane,
    operator: Operator,
    binary: &Path,
    objects: usize,
    qps: u32,
    idle: Duration,
) -> Figures {
    let name = format!("peer-{}", operator.name());
    let client = plane.client();
    workload::create_namespace(&client, &name)
        .await
        .expect("the namespace");
    let api = Api::<v1::WebApp>::namespaced(client.clone(), &name);
    let mut names: Vec<String> = (0..objects).map(|i| format!("app-{i}")).collect();
    workload::create(&api, &names).await.expect("the WebApps");
    let progress = Progress::watch(api.clone()).await;

    let out = process::target_dir().join("peer");
    let kubeconfig = out.join(format!("{name}.kubeconfig"));
    let yaml = plane.admin_kubeconfig_as(&name).expect("a kubeconfig");
    // The operator's namespace is its own; it watches the whole cluster, as both default to.
    std::fs::write(&kubeconfig, yaml).expect("the kubeconfig is written");
    let log = out.join(format!("{name}.log"));
    eprintln!(
        "peer bench: {} operator started (log {})",
        operator.name(),
        log.display()
    );
    let started_at = Timestamp::now();
    let mut running = operator
        .start(binary, &kubeconfig, qps, &log)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut figures = Figures::default();
    let limit = Duration::from_secs(600) + Duration::from_millis(500) * objects as u32;
    let started = tokio::time::Instant::now();

    // The probe goes in once the operator has reconciled its first WebApp of the initial list.
    let tick = Duration::from_millis(50);
    wait_until(limit, tick, async || progress.reconciled() > 0).await;
    figures.reconciled_before_probe = progress.reconciled();
    workload::create(&api, &[PROBE.to_owned()])
        .await
        .expect("the probe");
    let probe_created = tokio::time::Instant::now();
    names.push(PROBE.to_owned());
    let total = names.len();
    let converged = wait_until(limit, tick, async || {
        if figures.first_reconcile_seconds.is_none() && progress.has_reconciled(PROBE) {
            figures.first_reconcile_seconds = Some(probe_created.elapsed().as_secs_f64());
        }
        progress.converged() == total
    })
    .await;
    figures.converge_seconds = converged.map(|_| started.elapsed().as_secs_f64());
    let converged_at = Timestamp::now();
    eprintln!("peer bench: {} converged: {converged:?}", operator.name());

    // Idle: after a few seconds for the last events to settle, nothing to do.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle_from = Timestamp::now();
    tokio::time::sleep(idle).await;
    let idle_to = Timestamp::now();

    let scaling = tokio::time::Instant::now();
    workload::scale(&api, &names, 2)
        .await
        .expect("the new specs");
    let scaled = wait_until(limit, Duration::from_millis(200), async || {
        progress.converged() == total
    })
    .await;
    figures.update_seconds = scaled.map(|_| scaling.elapsed().as_secs_f64());

    let deleting = tokio::time::Instant::now();
    workload::delete_all(&api).await.expect("the deletion");
    let gone = wait_until(limit, Duration::from_secs(1), async || {
        workload::is_empty(&client, &name).await.unwrap_or(false)
    })
    .await;
    figures.delete_seconds = gone.map(|_| deleting.elapsed().as_secs_f64());

    // VmHWM is the kernel's own high-water mark: one read at the end is the peak of the run.
    figures.usage = running.usage().unwrap_or_else(|e| panic!("{e}"));
    running.stop();
    let requests = audit::requests(plane.audit_log(), &name).expect("the audit log");
    let per_object = |n: usize| n as f64 / total as f64;
    let until_converged = audit::between(&requests, started_at, converged_at);
    figures.converge_requests_per_object = per_object(until_converged.len());
    figures.requests_per_object = per_object(requests.len());
    let idle = audit::between(&requests, idle_from, idle_to);
    let idle_minutes = idle_to.duration_since(idle_from).as_secs_f64() / 60.0;
    figures.idle_writes_per_minute =
        idle.iter().filter(|r| r.is_write()).count() as f64 / idle_minutes;
    figures.requests_by_verb = format!(
        "until converged: {}; whole run: {}",
        audit::by_verb(until_converged),
        audit::by_verb(&requests)
    );
    eprintln!("peer bench: {} done: {figures:?}", operator.name());
    figures
}

fn report(webop: &Figures, go: &Figures, objects: usize) {
    let line = |figure: &str, w: Option<f64>, g: Option<f64>| {
        let show = |v: Option<f64>| v.map_or("timeout".to_owned(), |v| format!("{v:.2}"));
        let ratio = match (w, g) {
            (Some(w), Some(g)) if g > 0.0 => format!("{:.2}", w / g),
            (Some(0.0), Some(_)) => "1.00".to_owned(),
            _ => "n/a".to_owned(),
        };
        println!(
            "peer_{figure} webop={} go={} ratio={ratio}",
            show(w),
            show(g)
        );
    };
    println!("peer_objects {objects} (+1 probe)");
    line(
        "converge_seconds",
        webop.converge_seconds,
        go.converge_seconds,
    );
    line(
        "converge_requests_per_object",
        Some(webop.converge_requests_per_object),
        Some(go.converge_requests_per_object),
    );
    line(
        "requests_per_object",
        Some(webop.requests_per_object),
        Some(go.requests_per_object),
    );
    line(
        "idle_writes_per_minute",
        Some(webop.idle_writes_per_minute),
        Some(go.idle_writes_per_minute),
    );
    line("update_seconds", webop.update_seconds, go.update_seconds);
    line("delete_seconds", webop.delete_seconds, go.delete_seconds);
    line(
        "peak_rss_mib",
        Some(webop.usage.peak_rss_mib),
        Some(go.usage.peak_rss_mib),
    );
    line(
        "cpu_seconds",
        Some(webop.usage.cpu_seconds),
        Some(go.usage.cpu_seconds),
    );
    line(
        "first_reconcile_seconds",
        webop.first_reconcile_seconds,
        go.first_reconcile_seconds,
    );
    println!(
        "peer_probe_created_after_reconciled webop={} go={}",
        webop.reconciled_before_probe, go.reconciled_before_probe
    );
    println!("peer_requests webop: {}", webop.requests_by_verb);
    println!("peer_requests go: {}", go.requests_by_verb);
}
