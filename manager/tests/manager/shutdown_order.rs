//! The shutdown runs in controller-runtime's order (`engageStopProcedure`): the controllers
//! drain and the Lease is released while the probes and `/metrics` keep answering; the HTTP
//! servers stop last, and then refuse new connections at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ObjectMeta, PostParams};
use kube::runtime::controller::Action;
use kube::runtime::watcher;
use kube::{Api, Client};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;
use webop_manager::{Manager, Options};
use webop_testkit::{ApiServer, Matcher, Verb};

const LEASE: &str = "shutdown-order";

/// `GET path` over plain HTTP/1.1, the status code, or `None` when no answer comes within two
/// seconds (a stopped server's listener would leave the client waiting in its backlog).
async fn status(address: SocketAddr, path: &str) -> Option<u16> {
    let request = async {
        let mut stream = tokio::net::TcpStream::connect(address).await.ok()?;
        let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).await.ok()?;
        response.get(9..12)?.parse().ok()
    };
    tokio::time::timeout(Duration::from_secs(2), request)
        .await
        .ok()
        .flatten()
}

async fn holder(client: &Client) -> Option<String> {
    let leases: Api<Lease> = Api::namespaced(client.clone(), "default");
    leases.get(LEASE).await.unwrap().spec?.holder_identity
}

/// A ConfigMap controller whose reconcile says it `entered`, then waits for `gate`.
async fn gated_controller(manager: Manager, entered: Arc<Notify>, gate: Arc<Notify>) {
    let kit = manager.controller::<ConfigMap>("configmaps");
    let reconcile = move |_: Arc<ConfigMap>, _: Arc<()>| {
        let (entered, gate) = (entered.clone(), gate.clone());
        async move {
            entered.notify_one();
            gate.notified().await;
            Ok::<_, std::io::Error>(Action::await_change())
        }
    };
    let results = kit.build(manager.api(), watcher::Config::default()).run(
        kit.reconcile(reconcile),
        kit.error_policy(),
        Arc::new(()),
    );
    kit.drive(results).await;
}

#[tokio::test]
async fn servers_answer_while_the_controllers_drain_and_the_lease_is_released() {
    let server = ApiServer::new();
    let client = server.client();
    let options = Options {
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        metrics_secure: false,
        health_probe_bind_address: "127.0.0.1:0".to_owned(),
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, LEASE);
    let (entered, gate) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let run = tokio::spawn(manager.clone().run({
        let (entered, gate) = (entered.clone(), gate.clone());
        move |manager| gated_controller(manager, entered, gate)
    }));
    let configmap = ConfigMap {
        metadata: ObjectMeta {
            name: Some("settings".to_owned()),
            ..ObjectMeta::default()
        },
        ..ConfigMap::default()
    };
    Api::<ConfigMap>::namespaced(client.clone(), "default")
        .create(&PostParams::default(), &configmap)
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(20), entered.notified())
        .await
        .expect("the reconcile started");
    let probes = manager.probe_address().unwrap();
    let metrics = manager.metrics_address().unwrap();

    manager.shutdown();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        holder(&client).await.is_some(),
        "the Lease is held while draining"
    );
    for (address, path) in [
        (probes, "/healthz"),
        (probes, "/readyz"),
        (metrics, "/metrics"),
    ] {
        assert_eq!(
            status(address, path).await,
            Some(200),
            "{path} while draining"
        );
    }

    // The release takes a second: the servers answer through it.
    server.faults().delay(
        Matcher::new(Verb::Update, Some("leases")),
        Duration::from_secs(1),
    );
    gate.notify_one();
    let mut answered_while_releasing = 0;
    while holder(&client).await.is_some() {
        // The release may land between the two looks: an unanswered probe is a failure only
        // while the Lease is still held.
        let probe = status(probes, "/healthz").await;
        if probe != Some(200) {
            assert!(
                holder(&client).await.is_none(),
                "/healthz while releasing: {probe:?}"
            );
            break;
        }
        answered_while_releasing += 1;
        // The release may also land after the look that began this round: a manager that has
        // stopped must have released the Lease by then.
        if run.is_finished() {
            assert!(
                holder(&client).await.is_none(),
                "the manager stopped before releasing"
            );
            break;
        }
    }
    assert!(
        answered_while_releasing > 0,
        "the probes were asked during the release"
    );
    tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("the manager stops")
        .unwrap()
        .unwrap();
    for address in [probes, metrics] {
        assert!(
            tokio::net::TcpStream::connect(address).await.is_err(),
            "{address} refuses connections once stopped"
        );
    }
}
