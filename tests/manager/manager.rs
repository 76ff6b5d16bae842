//! `webop_manager` against the testkit: the HTTP endpoints around a running controller,
//! retries, panics and deletions (leader election: `manager_leader_election.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ObjectMeta, PostParams};
use kube::runtime::controller::Action;
use kube::runtime::watcher;
use kube::{Api, Client};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use webop_manager::{ControllerKit, Manager, Options};
use webop_testkit::ApiServer;

/// `GET path` over plain HTTP/1.1: the status code and the body.
async fn get(address: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let code = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (code, body)
}

async fn create_configmap(client: &Client, name: &str) {
    let configmap = ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            ..Default::default()
        },
        ..Default::default()
    };
    Api::<ConfigMap>::namespaced(client.clone(), "default")
        .create(&PostParams::default(), &configmap)
        .await
        .unwrap();
}

/// Runs a controller of ConfigMaps whose reconcile is `behaviour`.
async fn run_configmaps<F, Fut>(kit: ControllerKit<ConfigMap>, behaviour: F)
where
    F: Fn(Arc<ConfigMap>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Action, std::io::Error>> + Send + 'static,
{
    let api = kit.manager().api::<ConfigMap>();
    let reconcile = move |object: Arc<ConfigMap>, _: Arc<()>| behaviour(object);
    let results = kit.build(api, watcher::Config::default()).run(
        kit.reconcile(reconcile),
        kit.error_policy(),
        Arc::new(()),
    );
    kit.drive(results).await;
}

/// A controller of ConfigMaps whose reconcile fails `failures` times, then succeeds.
async fn configmap_controller(manager: Manager, failures: Arc<AtomicUsize>) {
    let kit = manager.controller::<ConfigMap>("configmaps");
    run_configmaps(kit, move |_| {
        let failures = failures.clone();
        async move {
            let left = failures.load(Ordering::SeqCst);
            if left > 0 {
                failures.store(left - 1, Ordering::SeqCst);
                return Err(std::io::Error::other("not yet"));
            }
            Ok(Action::await_change())
        }
    })
    .await;
}

/// The value of `series` (a name and its labels) in `manager`'s metrics.
fn metric(manager: &Manager, series: &str) -> f64 {
    let text = manager.metrics().encode();
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {series} in\n{text}"))
}

async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let waiting = async {
        while !check().await {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(20), waiting)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
}

#[tokio::test]
async fn metrics_probes_and_backoff_around_a_running_controller() {
    let server = ApiServer::new();
    let client = server.client();
    create_configmap(&client, "settings").await;
    let options = Options {
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        metrics_secure: false,
        health_probe_bind_address: "127.0.0.1:0".to_owned(),
        ..Options::default()
    };
    let manager = Manager::with_client(client, options, "test");
    let servers = manager.serve().await.unwrap();
    let (metrics, probes) = (servers.metrics.unwrap(), servers.probes.unwrap());
    assert_eq!(get(probes, "/healthz").await, (200, "ok\n".to_owned()));

    let failures = Arc::new(AtomicUsize::new(3));
    let controller = tokio::spawn(configmap_controller(manager.clone(), failures.clone()));
    eventually("readiness", async || get(probes, "/readyz").await.0 == 200).await;
    let success =
        "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"} 1";
    eventually("a success after three failures", async || {
        get(metrics, "/metrics")
            .await
            .1
            .lines()
            .any(|l| l == success)
    })
    .await;
    let text = get(metrics, "/metrics").await.1;
    for line in [
        "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"error\"} 3",
        "controller_runtime_reconcile_errors_total{controller=\"configmaps\"} 3",
        "controller_runtime_reconcile_time_seconds_count{controller=\"configmaps\"} 4",
        "workqueue_depth{name=\"configmaps\",controller=\"configmaps\",priority=\"\"} 0",
        "workqueue_retries_total{name=\"configmaps\",controller=\"configmaps\"} 3",
    ] {
        assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
    }
    assert_eq!(get(metrics, "/nothing").await.0, 404);

    manager.shutdown();
    controller.await.unwrap();
    servers.stopped().await;
    assert!(
        tokio::net::TcpStream::connect(probes).await.is_err(),
        "probes stopped"
    );
}

/// controller-runtime's readiness is a ping and the webhook server's started check: a replica
/// whose list goes through its own conversion webhook is ready before its caches fill.
#[tokio::test]
async fn readyz_does_not_wait_for_the_caches() {
    let server = ApiServer::new();
    server.faults().fail_matching(
        webop_testkit::Matcher::new(webop_testkit::Verb::List, Some("configmaps")),
        usize::MAX,
        503,
    );
    let options = Options {
        health_probe_bind_address: "127.0.0.1:0".to_owned(),
        ..Options::default()
    };
    let manager = Manager::with_client(server.client(), options, "test");
    let servers = manager.serve().await.unwrap();
    let probes = servers.probes.unwrap();
    let controller = tokio::spawn(configmap_controller(manager.clone(), Arc::default()));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(get(probes, "/readyz").await, (200, "ok\n".to_owned()));
    assert_eq!(get(probes, "/healthz").await, (200, "ok\n".to_owned()));
    manager.shutdown();
    controller.abort();
}

#[tokio::test]
async fn a_panicking_reconcile_is_retried_and_the_others_go_on() {
    let server = ApiServer::new();
    let client = server.client();
    let manager = Manager::with_client(client.clone(), Options::default(), "test");
    let kit = manager.controller::<ConfigMap>("configmaps");
    let panics_left = Arc::new(AtomicUsize::new(2));
    let controller = tokio::spawn(run_configmaps(kit, {
        let panics_left = panics_left.clone();
        move |object: Arc<ConfigMap>| {
            let explosive = object.metadata.name.as_deref() == Some("explosive");
            if explosive && panics_left.load(Ordering::SeqCst) > 0 {
                panics_left.fetch_sub(1, Ordering::SeqCst);
                panic!("explosive went off");
            }
            async { Ok(Action::await_change()) }
        }
    }));
    create_configmap(&client, "explosive").await;
    create_configmap(&client, "calm").await;
    let succeeded =
        "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"}";
    eventually("both reconciled", async || {
        metric(&manager, succeeded) == 2.0
    })
    .await;
    let labels = "{controller=\"configmaps\"}";
    let panics = metric(
        &manager,
        &format!("controller_runtime_reconcile_panics_total{labels}"),
    );
    assert_eq!(panics, 2.0);
    let errors = metric(
        &manager,
        &format!("controller_runtime_reconcile_errors_total{labels}"),
    );
    assert_eq!(errors, 2.0);
    let retries = "workqueue_retries_total{name=\"configmaps\",controller=\"configmaps\"}";
    assert_eq!(metric(&manager, retries), 2.0);

    // The controller still serves new objects.
    create_configmap(&client, "late").await;
    eventually("the late one reconciled", async || {
        metric(&manager, succeeded) == 3.0
    })
    .await;
    assert!(!controller.is_finished());
    manager.shutdown();
    controller.await.unwrap();
}

#[tokio::test]
async fn a_deleted_objects_backoff_is_forgotten() {
    let server = ApiServer::new();
    let client = server.client();
    let manager = Manager::with_client(client.clone(), Options::default(), "test");
    let kit = manager.controller::<ConfigMap>("configmaps");
    let controller = tokio::spawn(run_configmaps(kit.clone(), |_| async {
        Err(std::io::Error::other("never"))
    }));
    create_configmap(&client, "doomed").await;
    let errors = "controller_runtime_reconcile_errors_total{controller=\"configmaps\"}";
    eventually("a few failures", async || metric(&manager, errors) >= 3.0).await;
    assert_eq!(kit.rate_limiter().len(), 1);

    Api::<ConfigMap>::namespaced(client, "default")
        .delete("doomed", &Default::default())
        .await
        .unwrap();
    eventually("the backoff to be forgotten", async || {
        kit.rate_limiter().is_empty()
    })
    .await;
    let depth = "workqueue_depth{name=\"configmaps\",controller=\"configmaps\",priority=\"\"}";
    assert_eq!(metric(&manager, depth), 0.0);
    manager.shutdown();
    controller.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_sync_period_reconciles_every_object_again() {
    let server = ApiServer::new();
    let client = server.client();
    let options = Options {
        sync_period: Some(Duration::from_secs(600)),
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, "test");
    let controller = tokio::spawn(configmap_controller(manager.clone(), Arc::default()));
    create_configmap(&client, "settings").await;
    let succeeded =
        "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"}";
    eventually("the first reconcile", async || {
        metric(&manager, succeeded) == 1.0
    })
    .await;
    tokio::time::sleep(Duration::from_secs(599)).await;
    assert_eq!(metric(&manager, succeeded), 1.0, "nothing changed yet");
    tokio::time::sleep(Duration::from_secs(2)).await;
    eventually("the resync", async || metric(&manager, succeeded) == 2.0).await;
    let adds = "workqueue_adds_total{name=\"configmaps\",controller=\"configmaps\"}";
    assert_eq!(metric(&manager, adds), 2.0);
    manager.shutdown();
    controller.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_watch_namespace_confines_the_controller_to_it() {
    let server = ApiServer::new();
    let client = server.client();
    let options = Options {
        watch_namespace: Some("kube-public".to_owned()),
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, "test");
    let controller = tokio::spawn(configmap_controller(manager.clone(), Arc::default()));
    create_configmap(&client, "elsewhere").await;
    let watched = ConfigMap {
        metadata: ObjectMeta {
            name: Some("watched".to_owned()),
            ..Default::default()
        },
        ..Default::default()
    };
    Api::<ConfigMap>::namespaced(client, "kube-public")
        .create(&PostParams::default(), &watched)
        .await
        .unwrap();
    let succeeded =
        "controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"}";
    eventually("the watched one", async || {
        metric(&manager, succeeded) == 1.0
    })
    .await;
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(metric(&manager, succeeded), 1.0, "only kube-public's");
    let adds = "workqueue_adds_total{name=\"configmaps\",controller=\"configmaps\"}";
    assert_eq!(metric(&manager, adds), 1.0);
    manager.shutdown();
    controller.await.unwrap();
}
