//! The manager's webhook server: HTTPS on `--webhook-port` with a self-signed certificate (its
//! `caBundle` verifies it) or the one of `--webhook-cert-path`, reviews answered at the
//! webhooks' paths, controller-runtime's webhook metrics, `/readyz` waiting for the server, and
//! `ENABLE_WEBHOOKS=false`.

use base64::Engine;
use rustls::pki_types::ServerName;
use rustls::pki_types::pem::PemObject;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webop_manager::{Manager, Options};
use webop_testkit::ApiServer;

use crate::manager_support;
use crate::webhook_support;

const MUTATE: &str = "/mutate-app-example-com-v1-webapp";

fn manager(options: Options) -> Manager {
    let client = ApiServer::new().client();
    Manager::with_client(client, options, "test").with_webhooks(webhook_support::webhooks())
}

/// A TLS client that trusts only `ca_pem`.
fn trusting(ca_pem: &[u8]) -> tokio_rustls::TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.unwrap()).unwrap();
    }
    manager_support::connector(Some(roots))
}

/// POSTs `body` to `path` over TLS (verified for `127.0.0.1`): the status and the body.
async fn post(
    manager: &Manager,
    tls: &tokio_rustls::TlsConnector,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> (u16, String) {
    let port = manager.webhook_address().unwrap().port();
    let tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let name = ServerName::try_from("127.0.0.1").unwrap();
    let mut stream = tls.connect(name, tcp).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: test\r\ncontent-type: {content_type}\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let response = String::from_utf8_lossy(&response).into_owned();
    let code = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (code, body)
}

fn review() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "u-1", "operation": "CREATE", "name": "web",
            "kind": {"group": "app.example.com", "version": "v1", "kind": "WebApp"},
            "object": {"apiVersion": "app.example.com/v1", "kind": "WebApp",
                       "metadata": {"name": "web"}, "spec": {"image": "nginx"}},
        },
    }))
    .unwrap()
}

#[tokio::test]
async fn reviews_are_answered_over_https_with_the_self_signed_ca_bundle() {
    let manager = manager(Options::default());
    assert_eq!(manager.readiness().pending(), ["webhook-server"]);
    let servers = manager.serve().await.unwrap();
    assert!(
        manager.readiness().is_ready(),
        "ready once the webhook server listens"
    );
    assert_eq!(servers.webhook, manager.webhook_address());
    let ca_bundle = manager
        .webhook_ca_bundle()
        .expect("a self-signed certificate");
    let ca_pem = base64::engine::general_purpose::STANDARD
        .decode(ca_bundle)
        .unwrap();
    let tls = trusting(&ca_pem);

    let (code, body) = post(&manager, &tls, MUTATE, "application/json", &review()).await;
    assert_eq!(code, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["response"]["uid"], "u-1");
    assert_eq!(answer["response"]["allowed"], true);
    assert_eq!(answer["response"]["patchType"], "JSONPatch");

    let (code, _) = post(&manager, &tls, MUTATE, "text/plain", &review()).await;
    assert_eq!(code, 400, "only JSON reviews");
    let (code, _) = post(&manager, &tls, "/mutate-nothing", "application/json", b"{}").await;
    assert_eq!(code, 404);

    let metrics = manager.metrics().encode();
    for line in [
        "controller_runtime_webhook_requests_total{webhook=\"/mutate-app-example-com-v1-webapp\",code=\"200\"} 1",
        "controller_runtime_webhook_requests_total{webhook=\"/mutate-app-example-com-v1-webapp\",code=\"400\"} 1",
        "controller_runtime_webhook_requests_in_flight{webhook=\"/mutate-app-example-com-v1-webapp\"} 0",
        "controller_runtime_webhook_latency_seconds_count{webhook=\"/mutate-app-example-com-v1-webapp\"} 2",
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "no {line:?} in\n{metrics}"
        );
    }
    manager.shutdown();
    servers.stopped().await;
}

#[tokio::test]
async fn the_certificate_of_webhook_cert_path_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let generated = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    std::fs::write(dir.path().join("serving.crt"), generated.cert.pem()).unwrap();
    std::fs::write(
        dir.path().join("serving.key"),
        generated.signing_key.serialize_pem(),
    )
    .unwrap();
    let manager = manager(Options {
        webhook_cert_path: Some(dir.path().to_owned()),
        webhook_cert_name: "serving.crt".to_owned(),
        webhook_cert_key: "serving.key".to_owned(),
        ..Options::default()
    });
    let servers = manager.serve().await.unwrap();
    assert_eq!(manager.webhook_ca_bundle(), None);
    let tls = trusting(generated.cert.pem().as_bytes());
    let (code, _) = post(&manager, &tls, MUTATE, "application/json", &review()).await;
    assert_eq!(code, 200);
    manager.shutdown();
    servers.stopped().await;

    let missing = manager_with_cert_dir(dir.path().join("absent"));
    let error = missing.serve().await.unwrap_err().to_string();
    assert!(error.contains("absent/tls.crt"), "{error}");
}

fn manager_with_cert_dir(dir: std::path::PathBuf) -> Manager {
    manager(Options {
        webhook_cert_path: Some(dir),
        ..Options::default()
    })
}

#[tokio::test]
async fn enable_webhooks_false_serves_nothing_and_stays_ready() {
    let manager = manager(Options {
        enable_webhooks: false,
        ..Options::default()
    });
    let servers = manager.serve().await.unwrap();
    assert_eq!(servers.webhook, None);
    assert_eq!(manager.webhook_address(), None);
    assert!(manager.readiness().is_ready());
    manager.shutdown();
    servers.stopped().await;
}
