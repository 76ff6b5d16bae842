//! The webhook server's limits on what a client can make it hold (issue 29): the content type
//! checked exactly, a deadline on a review's body, a bound on connections, and HTTP/1.1 alone
//! offered by ALPN. Times are Tokio's paused clock: exact, and instant.

use std::sync::Arc;
use std::time::Duration;

use crate::support::{self, MUTATE, config_map, review};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use webop_manager::{
    BODY_READ_TIMEOUT, HEADER_READ_TIMEOUT, MAX_CONNECTIONS, Manager, Options, Servers,
};
use webop_testkit::ApiServer;

/// A manager serving the ConfigMap webhook, with a client configuration that trusts its
/// certificate.
struct Serving {
    manager: Manager,
    servers: Servers,
    trusting: rustls::ClientConfig,
    port: u16,
    _certificates: tempfile::TempDir,
}

impl Serving {
    async fn start() -> Self {
        let certificates = tempfile::tempdir().unwrap();
        let trusting = support::certificate(certificates.path());
        let options = Options {
            webhook_cert_path: Some(certificates.path().to_owned()),
            ..Options::default()
        };
        let manager = Manager::with_client(ApiServer::new().client(), options, "test")
            .with_webhooks(support::webhooks());
        let servers = manager.serve().await.unwrap();
        let port = manager.webhook_address().unwrap().port();
        Serving {
            manager,
            servers,
            trusting,
            port,
            _certificates: certificates,
        }
    }

    async fn stop(self) {
        self.manager.shutdown();
        self.servers.stopped().await;
    }
}

#[tokio::test]
async fn the_content_type_is_json_exactly_with_or_without_parameters() {
    let serving = Serving::start().await;
    let (tls, port) = (support::connector(&serving.trusting), serving.port);
    let body = review(config_map());
    for (content_type, expected) in [
        ("application/json", 200),
        ("application/json; charset=utf-8", 200),
        ("Application/JSON", 200),
        ("application/jsonx", 400),
        ("application/json-seq", 400),
        ("text/plain", 400),
    ] {
        let (code, answer, _) = support::post_as(&tls, port, MUTATE, content_type, &body).await;
        assert_eq!(code, expected, "{content_type}: {answer}");
    }
    serving.stop().await;
}

#[tokio::test(start_paused = true)]
async fn a_body_slower_than_the_read_timeout_is_refused() {
    let serving = Serving::start().await;
    let (tls, port) = (support::connector(&serving.trusting), serving.port);
    let mut stream = support::tls(&tls, port).await;
    let body = review(config_map());
    let head = format!(
        "POST {MUTATE} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body[..10]).await.unwrap();
    let started = Instant::now();
    let mut response = Vec::new();
    let read = stream.read_to_end(&mut response);
    let answered = tokio::time::timeout(Duration::from_secs(300), read).await;
    assert!(answered.is_ok(), "the server waits for the body for ever");
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(started.elapsed() >= BODY_READ_TIMEOUT);
    assert!(started.elapsed() < BODY_READ_TIMEOUT + Duration::from_secs(1));
    serving.stop().await;
}

#[tokio::test(start_paused = true)]
async fn a_chunked_body_over_the_limit_is_refused() {
    let serving = Serving::start().await;
    let (tls, port) = (support::connector(&serving.trusting), serving.port);
    let mut stream = support::tls(&tls, port).await;
    let head = format!(
        "POST {MUTATE} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n\
         transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b' '; 1024 * 1024];
    for _ in 0..8 {
        let sent = async {
            stream.write_all(b"100000\r\n").await?;
            stream.write_all(&chunk).await?;
            stream.write_all(b"\r\n").await
        };
        if sent.await.is_err() {
            break;
        }
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    serving.stop().await;
}

#[tokio::test(start_paused = true)]
async fn connections_beyond_the_limit_wait_for_a_free_one() {
    let serving = Serving::start().await;
    let (tls, port) = (support::connector(&serving.trusting), serving.port);
    // Connections that say nothing hold their slot until the handshake times out.
    let mut silent = Vec::new();
    for _ in 0..MAX_CONNECTIONS {
        silent.push(TcpStream::connect(("127.0.0.1", port)).await.unwrap());
    }
    let started = Instant::now();
    let (code, _, _) = support::post(&tls, port, MUTATE, &review(config_map())).await;
    assert_eq!(code, 200);
    assert!(
        started.elapsed() >= HEADER_READ_TIMEOUT,
        "served after {:?}, beside {MAX_CONNECTIONS} open connections",
        started.elapsed()
    );

    // Below the limit, a connection is served at once.
    silent.clear();
    let started = Instant::now();
    let (code, _, _) = support::post(&tls, port, MUTATE, &review(config_map())).await;
    assert_eq!(code, 200);
    assert!(started.elapsed() < Duration::from_secs(1));
    serving.stop().await;
}

/// HTTP/1.1 is what the server speaks, and what ALPN offers: a client that asks for it (or
/// for either) gets it; one that speaks only HTTP/2 is told so in the handshake, as a Go
/// server with HTTP/2 disabled (kubebuilder's default) tells it.
#[tokio::test]
async fn alpn_offers_http_1_1() {
    let serving = Serving::start().await;
    let (trusting, port) = (&serving.trusting, serving.port);
    let connect = |protocols: Vec<&[u8]>| {
        let mut config = trusting.clone();
        config.alpn_protocols = protocols.into_iter().map(<[u8]>::to_vec).collect();
        async move {
            let tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            let name = ServerName::try_from("127.0.0.1").unwrap();
            let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
            let stream = connector.connect(name, tcp).await?;
            Ok::<_, std::io::Error>(stream.get_ref().1.alpn_protocol().map(<[u8]>::to_vec))
        }
    };
    let http11 = Some(b"http/1.1".to_vec());
    assert_eq!(connect(vec![b"h2", b"http/1.1"]).await.unwrap(), http11);
    assert_eq!(connect(vec![b"http/1.1"]).await.unwrap(), http11);
    assert_eq!(connect(vec![]).await.unwrap(), None);
    let refused = connect(vec![b"h2"]).await.unwrap_err();
    assert!(
        refused.to_string().contains("NoApplicationProtocol"),
        "{refused}"
    );
    serving.stop().await;
}
