//! The client's side of the manager's servers, for its tests: a certificate for them and TLS
//! that trusts it, raw HTTP/1.1 requests, reviews of ConfigMaps with a webhook that defaults
//! them, and a process's memory as the kernel counts it.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use webop_core::webhook::{CustomDefaulter, Denied, Webhooks};

/// Where [`webhooks`] serves its defaulter.
pub const MUTATE: &str = "/mutate--v1-configmap";

/// Gives every ConfigMap a `defaulted` key.
pub struct Defaulter;

impl CustomDefaulter<ConfigMap> for Defaulter {
    async fn default(&self, config: &mut ConfigMap) -> Result<(), Denied> {
        let data = config.data.get_or_insert_default();
        data.insert("defaulted".into(), "yes".into());
        Ok(())
    }
}

/// A defaulting webhook for ConfigMaps, at [`MUTATE`].
pub fn webhooks() -> Webhooks {
    Webhooks::new().defaulter::<ConfigMap, _>(Defaulter)
}

/// An AdmissionReview v1 creating `object`, a ConfigMap.
pub fn review(object: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "u-1", "operation": "CREATE", "name": "web",
            "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "object": object,
        },
    }))
    .unwrap()
}

/// A ConfigMap named `web`.
pub fn config_map() -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}})
}

/// Writes a certificate for 127.0.0.1 (`tls.crt`, `tls.key`) into `dir`, for the manager's
/// servers; returns a client configuration that trusts it alone.
pub fn certificate(dir: &Path) -> rustls::ClientConfig {
    let generated = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let pem = generated.cert.pem();
    std::fs::write(dir.join("tls.crt"), &pem).unwrap();
    std::fs::write(dir.join("tls.key"), generated.signing_key.serialize_pem()).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth()
}

/// A TLS client of `config`.
pub fn connector(config: &rustls::ClientConfig) -> TlsConnector {
    TlsConnector::from(Arc::new(config.clone()))
}

/// Sends `head` and `body` over `stream` and reads the answer to its end: the status and the
/// body.
pub async fn exchange(
    mut stream: impl AsyncRead + AsyncWrite + Unpin,
    head: &str,
    body: &[u8],
) -> (u16, String) {
    // A server may answer (a refusal) and close before the body is all sent: its answer is
    // still read.
    let sent = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body).await
    };
    let _ = sent.await;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let response = String::from_utf8_lossy(&response);
    let code = response
        .get(9..12)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_owned());
    (code, body.unwrap_or_default())
}

/// A TLS connection to `port` on 127.0.0.1, verified.
pub async fn tls(tls: &TlsConnector, port: u16) -> tokio_rustls::client::TlsStream<TcpStream> {
    let tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let name = ServerName::try_from("127.0.0.1").unwrap();
    tls.connect(name, tcp).await.unwrap()
}

/// POSTs the review `body` to `path` over TLS: the status, the body and how long it took.
pub async fn post(
    connector: &TlsConnector,
    port: u16,
    path: &str,
    body: &[u8],
) -> (u16, String, Duration) {
    post_as(connector, port, path, "application/json", body).await
}

/// [`post`] with the content type `content_type`.
pub async fn post_as(
    connector: &TlsConnector,
    port: u16,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> (u16, String, Duration) {
    let started = Instant::now();
    let stream = tls(connector, port).await;
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: test\r\ncontent-type: {content_type}\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let (code, body) = exchange(stream, &head, body).await;
    (code, body, started.elapsed())
}

/// `GET /metrics` over TLS with `token` as bearer: the status.
pub async fn scrape(connector: &TlsConnector, port: u16, token: &str) -> u16 {
    let stream = tls(connector, port).await;
    let head = format!(
        "GET /metrics HTTP/1.1\r\nhost: test\r\nauthorization: Bearer {token}\r\n\
         connection: close\r\n\r\n"
    );
    exchange(stream, &head, b"").await.0
}

/// `GET /healthz` over plain HTTP: whether it said ok, and how long it took.
pub async fn healthz(port: u16) -> (bool, Duration) {
    let started = Instant::now();
    let Ok(stream) = TcpStream::connect(("127.0.0.1", port)).await else {
        return (false, started.elapsed());
    };
    let head = "GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n";
    let (code, body) = exchange(stream, head, b"").await;
    (code == 200 && body == "ok\n", started.elapsed())
}

/// The process `pid`'s resident memory now and at its peak (`VmRSS`, `VmHWM`), in MiB.
pub fn rss_mib(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(f64::NAN, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
