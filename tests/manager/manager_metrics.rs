//! The metrics server as kubebuilder v4 ships it: HTTPS, scrapers authenticated by a
//! TokenReview and authorized by a SubjectAccessReview (answered here by a stand-in for the API
//! server's review endpoints, around the testkit; `manager_envtest.rs` asks a real one), the
//! certificate of `--metrics-cert-path`, time limits on every connection, and every series a
//! Grafana dashboard made for controller-runtime reads (kubebuilder's, and those `webop edit
//! --plugins grafana` writes).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use manager_support::{connector, get, scrape};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webop_manager::{HEADER_READ_TIMEOUT, Manager, Options};
use webop_testkit::ApiServer;

use crate::manager_support;

const READER: &str = "system:serviceaccount:monitoring:prometheus";

/// The review endpoints of an API server, in front of the testkit: `reader-token` belongs to
/// Prometheus' service account, which may `get` `/metrics`; `outsider-token` to a user who may
/// not; any other token to nobody. Counts the reviews it answers.
fn reviewing_client(server: &ApiServer, reviews: Arc<AtomicUsize>) -> kube::Client {
    let api = server.service();
    let service = tower::service_fn(move |request: http::Request<kube::client::Body>| {
        let mut api = api.clone();
        let reviews = reviews.clone();
        async move {
            let path = request.uri().path().to_owned();
            let tokens = path.ends_with("/tokenreviews");
            if !tokens && !path.ends_with("/subjectaccessreviews") {
                let response = tower::Service::call(&mut api, request).await?;
                return Ok::<_, Box<dyn std::error::Error + Send + Sync>>(response);
            }
            reviews.fetch_add(1, Ordering::SeqCst);
            let body = request.into_body().collect().await?.to_bytes();
            let mut review: Value = serde_json::from_slice(&body)?;
            review["status"] = if tokens {
                match review["spec"]["token"].as_str() {
                    Some("reader-token") => json!({"authenticated": true, "user": {
                        "username": READER, "uid": "1", "groups": ["system:serviceaccounts"]}}),
                    Some("outsider-token") => {
                        json!({"authenticated": true, "user": {"username": "outsider"}})
                    }
                    _ => json!({"authenticated": false}),
                }
            } else {
                let spec = &review["spec"];
                let allowed = spec["user"] == READER
                    && spec["nonResourceAttributes"] == json!({"path": "/metrics", "verb": "get"});
                json!({"allowed": allowed})
            };
            let body = Full::new(serde_json::to_vec(&review)?.into()).boxed_unsync();
            let response = http::Response::builder()
                .status(201)
                .header("content-type", "application/json")
                .body(body)?;
            Ok(response)
        }
    });
    kube::Client::new(service, "default")
}

fn secure(options: Options) -> Options {
    Options {
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        ..options
    }
}

#[tokio::test]
async fn only_scrapers_the_api_server_authorizes_read_metrics() {
    let server = ApiServer::new();
    let reviews = Arc::new(AtomicUsize::new(0));
    let client = reviewing_client(&server, reviews.clone());
    let manager = Manager::with_client(client, secure(Options::default()), "test");
    let servers = manager.serve().await.unwrap();
    let address = servers.metrics.unwrap();
    let tls = connector(None);

    assert_eq!(
        scrape(address, &tls, None).await,
        (401, "Unauthorized\n".to_owned())
    );
    assert_eq!(scrape(address, &tls, Some("forged")).await.0, 401);
    let (code, body) = scrape(address, &tls, Some("outsider-token")).await;
    assert_eq!(
        (code, body.as_str()),
        (403, "Authorization denied for user outsider\n")
    );
    let (code, body) = scrape(address, &tls, Some("reader-token")).await;
    assert_eq!(code, 200, "{body}");
    assert!(
        body.contains("# TYPE process_cpu_seconds_total counter"),
        "{body}"
    );

    // forged, outsider (token and decision), reader (token and decision).
    assert_eq!(reviews.load(Ordering::SeqCst), 5);
    for _ in 0..3 {
        assert_eq!(scrape(address, &tls, Some("reader-token")).await.0, 200);
    }
    assert_eq!(reviews.load(Ordering::SeqCst), 5, "answers are cached");

    // Plain HTTP gets no answer from a TLS server.
    let mut plain = TcpStream::connect(address).await.unwrap();
    plain
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: test\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = plain.read_to_end(&mut answer).await;
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));
    manager.shutdown();
    servers.stopped().await;
}

#[tokio::test]
async fn the_certificate_of_metrics_cert_path_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    std::fs::write(dir.path().join("serving.crt"), leaf.pem()).unwrap();
    std::fs::write(dir.path().join("serving.key"), key.serialize_pem()).unwrap();

    let server = ApiServer::new();
    let client = reviewing_client(&server, Arc::default());
    let options = secure(Options {
        metrics_cert_path: Some(dir.path().to_owned()),
        metrics_cert_name: "serving.crt".to_owned(),
        metrics_cert_key: "serving.key".to_owned(),
        ..Options::default()
    });
    let manager = Manager::with_client(client, options, "test");
    let servers = manager.serve().await.unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    let verified = connector(Some(roots));
    let (code, _) = scrape(servers.metrics.unwrap(), &verified, Some("reader-token")).await;
    assert_eq!(code, 200);
    manager.shutdown();
    servers.stopped().await;

    let missing = Options {
        metrics_cert_name: "absent.crt".to_owned(),
        ..manager.options().clone()
    };
    let error = Manager::with_client(server.client(), missing, "test")
        .serve()
        .await
        .unwrap_err();
    assert!(error.to_string().contains("absent.crt"), "{error}");
}

/// Reads from `stream` until it closes, and returns how long that took (simulated time).
async fn closed_after(mut stream: impl AsyncRead + Unpin) -> Duration {
    let start = tokio::time::Instant::now();
    let mut sink = Vec::new();
    let reading = stream.read_to_end(&mut sink);
    let closed = tokio::time::timeout(Duration::from_secs(600), reading).await;
    assert!(closed.is_ok(), "the server keeps the connection open");
    start.elapsed()
}

#[tokio::test(start_paused = true)]
async fn silent_slow_and_idle_connections_are_closed() {
    let server = ApiServer::new();
    let options = Options {
        health_probe_bind_address: "127.0.0.1:0".to_owned(),
        ..secure(Options::default())
    };
    let manager = Manager::with_client(server.client(), options, "test");
    let servers = manager.serve().await.unwrap();
    let (probes, metrics) = (servers.probes.unwrap(), servers.metrics.unwrap());
    let limit = HEADER_READ_TIMEOUT..HEADER_READ_TIMEOUT + Duration::from_secs(1);

    // Connected, and nothing sent: no TLS handshake, no request.
    for address in [probes, metrics] {
        let silent = TcpStream::connect(address).await.unwrap();
        assert!(limit.contains(&closed_after(silent).await));
    }
    // A request header that never ends.
    let mut slow = TcpStream::connect(probes).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nhost: te")
        .await
        .unwrap();
    assert!(limit.contains(&closed_after(slow).await));
    // A kept-alive connection, idle after its first request.
    let mut idle = TcpStream::connect(probes).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n")
        .await
        .unwrap();
    let mut response = [0u8; 12];
    idle.read_exact(&mut response).await.unwrap();
    assert_eq!(&response, b"HTTP/1.1 200");
    assert!(limit.contains(&closed_after(idle).await));
    manager.shutdown();
    servers.stopped().await;
}

/// The label names of each sample name of an exposition, one sorted list per series.
type Series<'a> = BTreeMap<&'a str, BTreeSet<Vec<&'a str>>>;

/// The series of a Prometheus text exposition, and the type of each family.
fn exposition(text: &str) -> (Series<'_>, BTreeMap<&str, &str>) {
    let (mut series, mut types) = (BTreeMap::<_, BTreeSet<_>>::new(), BTreeMap::new());
    for line in text.lines() {
        if let Some(typed) = line.strip_prefix("# TYPE ") {
            let (name, kind) = typed.split_once(' ').unwrap();
            types.insert(name, kind);
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let end = line.find(['{', ' ']).unwrap();
        let mut labels: Vec<&str> = match line[end..].strip_prefix('{') {
            Some(rest) => rest[..rest.rfind('}').unwrap()]
                .split(',')
                .filter_map(|pair| pair.split_once('=').map(|(key, _)| key))
                .collect(),
            None => Vec::new(),
        };
        labels.sort_unstable();
        series.entry(&line[..end]).or_default().insert(labels);
    }
    (series, types)
}

/// Every series the controller-runtime dashboards of kubebuilder's Grafana plugin query, and the
/// ones alerts commonly use, with their labels (besides those Prometheus adds) and types.
const DASHBOARD_SERIES: [(&str, &[&str], &str); 20] = [
    (
        "controller_runtime_reconcile_total",
        &["controller", "result"],
        "counter",
    ),
    (
        "controller_runtime_reconcile_errors_total",
        &["controller"],
        "counter",
    ),
    (
        "controller_runtime_reconcile_panics_total",
        &["controller"],
        "counter",
    ),
    (
        "controller_runtime_reconcile_time_seconds_bucket",
        &["controller", "le"],
        "histogram",
    ),
    (
        "controller_runtime_active_workers",
        &["controller"],
        "gauge",
    ),
    (
        "controller_runtime_max_concurrent_reconciles",
        &["controller"],
        "gauge",
    ),
    (
        "workqueue_depth",
        &["controller", "name", "priority"],
        "gauge",
    ),
    ("workqueue_adds_total", &["controller", "name"], "counter"),
    (
        "workqueue_queue_duration_seconds_bucket",
        &["controller", "le", "name"],
        "histogram",
    ),
    (
        "workqueue_work_duration_seconds_bucket",
        &["controller", "le", "name"],
        "histogram",
    ),
    (
        "workqueue_retries_total",
        &["controller", "name"],
        "counter",
    ),
    (
        "workqueue_unfinished_work_seconds",
        &["controller", "name"],
        "gauge",
    ),
    (
        "workqueue_longest_running_processor_seconds",
        &["controller", "name"],
        "gauge",
    ),
    ("leader_election_master_status", &["name"], "gauge"),
    (
        "rest_client_requests_total",
        &["code", "host", "method"],
        "counter",
    ),
    ("process_cpu_seconds_total", &[], "counter"),
    ("process_resident_memory_bytes", &[], "gauge"),
    ("process_open_fds", &[], "gauge"),
    ("process_max_fds", &[], "gauge"),
    ("process_start_time_seconds", &[], "gauge"),
];

#[tokio::test]
async fn every_series_a_controller_runtime_dashboard_reads_is_served() {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::runtime::controller::Action;

    let server = ApiServer::new();
    let address = server
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let config = kube::Config::new(format!("http://{address}").parse().unwrap());
    let options = Options {
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        metrics_secure: false,
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        ..Options::default()
    };
    let manager = Manager::from_config(config, options, "dashboard-test").unwrap();
    let configmap = serde_json::from_value(json!({"metadata": {"name": "settings"}})).unwrap();
    kube::Api::<ConfigMap>::namespaced(server.client(), "default")
        .create(&Default::default(), &configmap)
        .await
        .unwrap();
    let run = tokio::spawn(manager.clone().run(|manager| async move {
        let kit = manager.controller::<ConfigMap>("configmap");
        let reconcile = |_: Arc<ConfigMap>, _: Arc<()>| async {
            Ok::<_, std::io::Error>(Action::await_change())
        };
        let results = kit.build(manager.api(), Default::default()).run(
            kit.reconcile(reconcile),
            kit.error_policy(),
            Arc::new(()),
        );
        kit.drive(results).await;
    }));

    let reconciled =
        "controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"}";
    let text = loop {
        if let Some(metrics) = manager.metrics_address() {
            let (code, text) = get(TcpStream::connect(metrics).await.unwrap(), None).await;
            assert_eq!(code, 200);
            if text
                .lines()
                .any(|l| l.starts_with(reconciled) && !l.ends_with(" 0"))
            {
                break text;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (series, types) = exposition(&text);
    for (name, labels, kind) in DASHBOARD_SERIES {
        let found = series
            .get(name)
            .unwrap_or_else(|| panic!("no {name} in\n{text}"));
        assert!(found.contains(labels), "{name}: {found:?}, not {labels:?}");
        let family = name.strip_suffix("_bucket").unwrap_or(name);
        assert_eq!(types.get(family), Some(&kind), "{family}");
    }
    manager_support::dashboards::webop_dashboards_read_served_series(&series, &text);
    manager.shutdown();
    run.await.unwrap().unwrap();
}
