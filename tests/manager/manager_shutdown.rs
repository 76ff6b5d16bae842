//! A graceful shutdown is bounded by `--graceful-shutdown-timeout`: reconciles that finish in
//! time finish, the ones that do not are abandoned, and the Lease is released either way. On
//! the testkit and a paused clock.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ObjectMeta, PostParams};
use kube::runtime::controller::Action;
use kube::runtime::watcher;
use kube::{Api, Client};
use tokio::time::Instant;
use webop_manager::{Error, Manager, Options};
use webop_testkit::ApiServer;

const LEASE: &str = "test-lease";

/// A ConfigMap controller whose reconcile takes `takes`.
async fn slow_controller(manager: Manager, takes: Duration) {
    let kit = manager.controller::<ConfigMap>("configmaps");
    let reconcile = move |_: Arc<ConfigMap>, _: Arc<()>| async move {
        tokio::time::sleep(takes).await;
        Ok::<_, std::io::Error>(Action::await_change())
    };
    let results = kit.build(manager.api(), watcher::Config::default()).run(
        kit.reconcile(reconcile),
        kit.error_policy(),
        Arc::new(()),
    );
    kit.drive(results).await;
}

async fn create_configmap(client: &Client) {
    let configmap = ConfigMap {
        metadata: ObjectMeta {
            name: Some("settings".to_owned()),
            ..Default::default()
        },
        ..Default::default()
    };
    Api::<ConfigMap>::namespaced(client.clone(), "default")
        .create(&PostParams::default(), &configmap)
        .await
        .unwrap();
}

/// Starts a leader whose reconciles take `takes`, waits until one runs, shuts the manager down
/// and returns what `run` returned and how long it took.
async fn shut_down_while_reconciling(takes: Duration) -> (ApiServer, Result<(), Error>, Duration) {
    let server = ApiServer::new();
    let client = server.client();
    let options = Options {
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, LEASE);
    let run = tokio::spawn(
        manager
            .clone()
            .run(move |manager| slow_controller(manager, takes)),
    );
    create_configmap(&client).await;
    let busy = "controller_runtime_active_workers{controller=\"configmaps\"} 1";
    while !manager.metrics().encode().lines().any(|l| l == busy) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let stopping = Instant::now();
    manager.shutdown();
    let outcome = tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("the shutdown is bounded")
        .unwrap();
    (server, outcome, stopping.elapsed())
}

async fn holder(server: &ApiServer) -> Option<String> {
    let leases: Api<Lease> = Api::namespaced(server.client(), "default");
    leases
        .get(LEASE)
        .await
        .unwrap()
        .spec
        .unwrap()
        .holder_identity
}

#[tokio::test(start_paused = true)]
async fn a_reconcile_that_finishes_in_time_finishes() {
    let (server, outcome, took) = shut_down_while_reconciling(Duration::from_secs(5)).await;
    outcome.unwrap();
    assert!(
        took >= Duration::from_secs(4),
        "waited for the reconcile: {took:?}"
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert_eq!(holder(&server).await, None, "released");
}

#[tokio::test(start_paused = true)]
async fn a_reconcile_that_does_not_is_abandoned_at_the_timeout_and_the_lease_released() {
    let (server, outcome, took) = shut_down_while_reconciling(Duration::from_secs(3600)).await;
    assert!(
        matches!(outcome, Err(Error::ShutdownTimeout(timeout)) if timeout == Duration::from_secs(30)),
        "{outcome:?}"
    );
    assert!(
        (Duration::from_secs(30)..Duration::from_secs(31)).contains(&took),
        "{took:?}"
    );
    assert_eq!(holder(&server).await, None, "released");
    let message = outcome.unwrap_err().to_string();
    assert!(
        message.contains("--graceful-shutdown-timeout (30s)"),
        "{message}"
    );
}
