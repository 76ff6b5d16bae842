//! `ControllerKit::run` picks objects by priority, as controller-runtime's priority queue does:
//! a change goes before what the initial list brought, and the listed objects still finish
//! under a stream of changes faster than the controller (controller-runtime#3496).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ObjectMeta, PostParams};
use kube::runtime::controller::Action;
use kube::{Api, Client};
use webop_manager::{Manager, Options};
use webop_testkit::ApiServer;

/// How long one reconcile takes.
const RECONCILE: Duration = Duration::from_millis(20);

async fn create(client: &Client, name: &str) {
    let configmap = ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            ..ObjectMeta::default()
        },
        ..ConfigMap::default()
    };
    Api::<ConfigMap>::namespaced(client.clone(), "default")
        .create(&PostParams::default(), &configmap)
        .await
        .unwrap();
}

/// Starts a manager whose ConfigMap controller records the name of each object it reconciles,
/// in order, and takes [`RECONCILE`] for each.
fn start(client: &Client) -> Arc<Mutex<Vec<String>>> {
    start_with(client, None)
}

/// As [`start`], with `--sync-period`.
fn start_with(client: &Client, sync_period: Option<Duration>) -> Arc<Mutex<Vec<String>>> {
    let options = Options {
        metrics_bind_address: "0".to_owned(),
        health_probe_bind_address: "0".to_owned(),
        sync_period,
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, "priority-order");
    let reconciled = Arc::new(Mutex::new(Vec::new()));
    let log = reconciled.clone();
    tokio::spawn(manager.run(move |manager: Manager| async move {
        let kit = manager.controller::<ConfigMap>("configmaps");
        let reconcile = move |object: Arc<ConfigMap>, _: Arc<()>| {
            let log = log.clone();
            async move {
                log.lock()
                    .unwrap()
                    .push(object.metadata.name.clone().unwrap());
                tokio::time::sleep(RECONCILE).await;
                Ok::<_, std::io::Error>(Action::await_change())
            }
        };
        kit.run(manager.api(), reconcile, ()).await;
    }));
    reconciled
}

/// Waits until `done` holds of the reconciled names (at most a minute).
async fn wait_for(reconciled: &Mutex<Vec<String>>, done: impl Fn(&[String]) -> bool) {
    for _ in 0..6_000 {
        if done(&reconciled.lock().unwrap()) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not reached in a minute: {:?}", reconciled.lock().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_created_during_the_initial_list_goes_before_the_listed_ones() {
    let server = ApiServer::new();
    let client = server.client();
    for i in 0..40 {
        create(&client, &format!("listed-{i:02}")).await;
    }
    let reconciled = start(&client);
    wait_for(&reconciled, |names| names.len() >= 3).await;
    let reconciled_before = reconciled.lock().unwrap().len();
    create(&client, "new").await;
    wait_for(&reconciled, |names| names.iter().any(|n| n == "new")).await;

    let names = reconciled.lock().unwrap().clone();
    let place = names.iter().position(|n| n == "new").unwrap();
    // The one running and the one handed to kube-runtime's scheduler when it was created, and
    // what ran while its watch event was on its way; kube-runtime's own queue put it 41st.
    assert!(
        place <= reconciled_before + 5,
        "reconciled {place}th, {reconciled_before} reconciles after the start: {names:?}"
    );
    wait_for(&reconciled, |names| names.len() >= 41).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listed_objects_finish_under_a_stream_of_changes_faster_than_the_controller() {
    let server = ApiServer::new();
    let client = server.client();
    for i in 0..20 {
        create(&client, &format!("listed-{i:02}")).await;
    }
    let reconciled = start(&client);
    // A new object every 10 ms, twice as fast as the controller reconciles them.
    let stream = tokio::spawn({
        let client = client.clone();
        async move {
            for i in 0.. {
                create(&client, &format!("changed-{i:05}")).await;
                tokio::time::sleep(RECONCILE / 2).await;
            }
        }
    });
    let listed_done =
        |names: &[String]| names.iter().filter(|n| n.starts_with("listed-")).count() == 20;
    wait_for(&reconciled, listed_done).await;
    let names = reconciled.lock().unwrap().clone();
    stream.abort();

    // Strict priority (controller-runtime's) would run only changes while they keep coming.
    // Here the listed objects took one pick in four, and changes the rest.
    let changes = names.iter().filter(|n| n.starts_with("changed-")).count();
    assert!(
        (40..=80).contains(&changes),
        "{changes} changes reconciled meanwhile: {names:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_reconciles_every_object_again() {
    let server = ApiServer::new();
    let client = server.client();
    for i in 0..3 {
        create(&client, &format!("listed-{i}")).await;
    }
    let reconciled = start_with(&client, Some(Duration::from_secs(1)));
    let twice_each = |names: &[String]| {
        (0..3).all(|i| {
            names
                .iter()
                .filter(|n| **n == format!("listed-{i}"))
                .count()
                >= 2
        })
    };
    wait_for(&reconciled, twice_each).await;
}
