//! Chaos on a real control plane (`KUBEBUILDER_ASSETS`; skipped without): two replicas of the
//! golden WebApp operator, with leader election, bring N WebApps to Running through four
//! faults: kube-apiserver down for 20 s, an etcd restart, the leader killed with a standby
//! running, and every connection cut then delayed. After each, every WebApp converges (one
//! Deployment and one Service each, none lost, none duplicated); at the end the audit log shows
//! no replica wrote while another held the Lease, and that the idle operator writes nothing.
//! Prints each fault's recovery time.
//!
//! N is 10 in CI; `WEBOP_CHAOS_WEBAPPS=1000 cargo test --test
//! manager_chaos -- --nocapture` runs it at scale.

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

use crate::v1;
use crate::webapp_controller;

use crate::chaos_support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use chaos_support::audit;
use chaos_support::proxy::Proxy;
use chaos_support::replicas::{self, Replica};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::api::{ListParams, PostParams};
use kube::{Api, Client, ResourceExt};
use tokio::time::Instant;
use webop_envtest::{Backend, Binary, ControlPlane, Environment};

const LEASE: &str = "webapp-operator.example.com";
const USERS: &str = "chaos-replica-";
const IMAGE: &str = "nginx:1.27";

fn webapp_count() -> usize {
    std::env::var("WEBOP_CHAOS_WEBAPPS")
        .ok()
        .map(|n| n.parse().expect("WEBOP_CHAOS_WEBAPPS is a number"))
        .unwrap_or(10)
}

async fn create_webapps(client: &Client, names: &[String]) {
    let api: Api<v1::WebApp> = Api::namespaced(client.clone(), "default");
    futures::stream::iter(names)
        .map(|name| {
            let api = api.clone();
            async move {
                let spec = v1::WebAppSpec {
                    image: IMAGE.to_owned(),
                    replicas: 1,
                    port: 80,
                    resources: None,
                };
                api.create(&PostParams::default(), &v1::WebApp::new(name, spec))
                    .await
            }
        })
        .buffer_unordered(16)
        .try_collect::<Vec<_>>()
        .await
        .expect("the WebApps are created");
}

/// Why the cluster is not converged, or `None` when every WebApp of `expected` is Running with
/// exactly one Deployment and one Service it controls, and no child is left without its owner.
async fn not_converged(client: &Client, expected: &[String]) -> Option<String> {
    let list = ListParams::default();
    let children = ListParams::default().labels("app.kubernetes.io/managed-by=webapp-operator");
    let webapps_api = Api::<v1::WebApp>::namespaced(client.clone(), "default");
    let deployments_api = Api::<Deployment>::namespaced(client.clone(), "default");
    let services_api = Api::<Service>::namespaced(client.clone(), "default");
    let (webapps, deployments, services) = tokio::join!(
        webapps_api.list(&list),
        deployments_api.list(&children),
        services_api.list(&children),
    );
    let (webapps, deployments, services) = match (webapps, deployments, services) {
        (Ok(w), Ok(d), Ok(s)) => (w.items, d.items, s.items),
        _ => return Some("the API server does not answer".to_owned()),
    };
    if webapps.len() != expected.len() {
        return Some(format!("{} WebApps of {}", webapps.len(), expected.len()));
    }
    let owners: BTreeMap<String, &v1::WebApp> =
        webapps.iter().map(|w| (w.uid().unwrap(), w)).collect();
    let mut owned: BTreeMap<(String, &str), usize> = BTreeMap::new();
    let kinds = deployments
        .iter()
        .map(|d| (&d.metadata, "Deployment"))
        .chain(services.iter().map(|s| (&s.metadata, "Service")));
    for (metadata, kind) in kinds {
        let owner = metadata
            .owner_references
            .iter()
            .flatten()
            .find(|o| o.controller == Some(true));
        match owner.filter(|o| owners.contains_key(&o.uid)) {
            Some(owner) => *owned.entry((owner.uid.clone(), kind)).or_default() += 1,
            None => return Some(format!("{kind} {:?} has no owner", metadata.name)),
        }
    }
    for webapp in &webapps {
        let uid = webapp.uid().unwrap();
        for kind in ["Deployment", "Service"] {
            let count = owned.get(&(uid.clone(), kind)).copied().unwrap_or(0);
            if count != 1 {
                return Some(format!("WebApp {} has {count} {kind}s", webapp.name_any()));
            }
        }
        let status = webapp.status.clone().unwrap_or_default();
        if status.phase != Some(v1::WebAppPhase::Running) {
            let waiting = webapps
                .iter()
                .filter(|w| {
                    w.status.as_ref().and_then(|s| s.phase) != Some(v1::WebAppPhase::Running)
                })
                .count();
            return Some(format!(
                "{waiting} WebApps not Running, e.g. {}",
                webapp.name_any()
            ));
        }
    }
    None
}

/// Waits until every WebApp of `expected` has converged.
async fn converge(client: &Client, expected: &[String], what: &str) {
    let started = Instant::now();
    let limit = Duration::from_secs(90) + Duration::from_millis(600) * expected.len() as u32;
    let poll = Duration::from_millis(if expected.len() > 100 { 1000 } else { 250 });
    loop {
        let Some(why) = not_converged(client, expected).await else {
            return;
        };
        assert!(
            started.elapsed() < limit,
            "{what}: not converged after {limit:?}: {why}"
        );
        tokio::time::sleep(poll).await;
    }
}

/// The replica `index`'s client configuration: its own user, through `proxy`.
async fn replica_config(plane: &ControlPlane, index: usize, proxy: &Proxy) -> kube::Config {
    let yaml = plane
        .admin_kubeconfig_as(&format!("{USERS}{index}"))
        .unwrap();
    let kubeconfig = kube::config::Kubeconfig::from_yaml(&yaml).unwrap();
    let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default())
        .await
        .unwrap();
    config.cluster_url = format!("https://{}", proxy.address).parse().unwrap();
    config
}

fn batch(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}-{i}")).collect()
}

/// One fault's figures: from its start and from its end until every WebApp has converged.
fn report(fault: &str, webapps: usize, started: Instant, ended: Instant) {
    let now = Instant::now();
    println!(
        "chaos webapps={webapps} fault={fault} fault_seconds={:.1} recovery_seconds={:.1}",
        (ended - started).as_secs_f64(),
        (now - ended).as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webapps_converge_through_control_plane_faults() {
    let Some(assets) = webop_envtest::Assets::from_env() else {
        eprintln!("skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets builds the binaries)");
        return;
    };
    let crds = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/webapp-operator/config/crd/bases");
    let mut env = Environment::builder()
        .backend(Backend::Real(assets))
        .crd_dir(crds)
        .controller_manager(true)
        .kwok(true)
        .start()
        .await
        .unwrap();
    env.control_plane().unwrap().announce();
    let client = env.client();
    let upstream: SocketAddr = env.control_plane().unwrap().server()["https://".len()..]
        .parse()
        .unwrap();
    let proxy = Proxy::start(upstream).await;
    let mut replicas = Vec::new();
    for index in 0..2 {
        let config = replica_config(env.control_plane().unwrap(), index, &proxy).await;
        let options = replicas::options(LEASE);
        replicas.push(Replica::start(
            index,
            config,
            options,
            webapp_controller::run,
        ));
    }

    let n = webapp_count();
    let mut expected = batch("app", n);
    let started = Instant::now();
    create_webapps(&client, &expected).await;
    converge(&client, &expected, "the first convergence").await;
    report("none-first-convergence", n, started, started);
    let fresh = (n / 10).max(2);

    // (a) kube-apiserver stops for 20 s, (b) etcd for 3 s, with fresh WebApps just created.
    let outages = [
        (
            Binary::ApiServer,
            Duration::from_secs(20),
            "kube-apiserver-down-20s",
        ),
        (Binary::Etcd, Duration::from_secs(3), "etcd-down-3s"),
    ];
    for (binary, down, fault) in outages {
        let names = batch(binary.file_name(), fresh);
        create_webapps(&client, &names).await;
        expected.extend(names);
        let plane = env.control_plane_mut().unwrap();
        let started = Instant::now();
        plane.kill(binary).unwrap();
        tokio::time::sleep(down).await;
        plane.restart(binary).await.unwrap();
        let ended = Instant::now();
        converge(&client, &expected, &format!("after {fault}")).await;
        report(fault, expected.len(), started, ended);
    }

    // (c) the leader is killed while the standby runs.
    let names = batch("leader", fresh);
    create_webapps(&client, &names).await;
    expected.extend(names);
    let leader = replicas
        .iter()
        .find(|r| r.leads())
        .expect("a replica leads");
    eprintln!("chaos: killing replica {}, the leader", leader.index);
    let started = Instant::now();
    leader.kill();
    converge(&client, &expected, "after the leader was killed").await;
    report("leader-killed", expected.len(), started, started);

    // (d) every connection of the replicas is cut, then delayed for 10 s (fresh WebApps are
    // created meanwhile), then cut again.
    let started = Instant::now();
    let cut = proxy.cut();
    proxy.delay(Duration::from_millis(300));
    let names = batch("watch", fresh);
    create_webapps(&client, &names).await;
    expected.extend(names);
    tokio::time::sleep_until(started + Duration::from_secs(10)).await;
    let cut_again = proxy.cut();
    proxy.delay(Duration::ZERO);
    let ended = Instant::now();
    eprintln!("chaos: cut {cut} connections, then {cut_again} delayed ones");
    converge(&client, &expected, "after the cut and delayed connections").await;
    report(
        "connections-cut-then-delayed-10s",
        expected.len(),
        started,
        ended,
    );

    // Idle: nothing but Lease renewals.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle_from = jiff::Timestamp::now();
    tokio::time::sleep(Duration::from_secs(15)).await;
    let log = env.control_plane().unwrap().audit_log().to_owned();
    let requests = audit::requests(&log, USERS);
    let idle_writes: Vec<_> = requests
        .iter()
        .filter(|r| r.received >= idle_from && r.is_write() && r.resource != "leases")
        .collect();
    assert!(
        idle_writes.is_empty(),
        "writes while idle: {idle_writes:#?}"
    );
    let overlapping = audit::writes_out_of_term(&requests, LEASE);
    assert!(
        overlapping.is_empty(),
        "written while another replica held the Lease: {overlapping:#?}"
    );
    let writes = requests.iter().filter(|r| r.is_write()).count();
    println!(
        "chaos webapps={} replica_writes={writes} lease_handovers={} idle_writes=0 \
         writes_out_of_term=0",
        expected.len(),
        audit::handovers(&requests, LEASE)
    );
    drop(replicas);
}
