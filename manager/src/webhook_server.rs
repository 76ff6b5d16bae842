//! The webhook server (feature `webhook`): HTTPS on `--webhook-port`, the certificate of
//! `--webhook-cert-path` reloaded on rotation (or a self-signed one), each review posted to a
//! webhook's path answered by [`Webhooks::handle`] and counted in
//! `controller_runtime_webhook_*`. Same connection limits and HTTP/1.1 as the metrics server.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use tokio::task::JoinHandle;

use super::tls::{self, CertificateSource};
use super::{Error, Metrics, Options, Shutdown, server};
use webop_core::webhook::Webhooks;

/// The largest review accepted (controller-runtime's `maxRequestSize`: 7 MiB, above the API
/// server's 3 MiB objects in an old/new pair).
const MAX_REQUEST_SIZE: usize = 7 * 1024 * 1024;

/// The webhook server once listening.
#[derive(Debug)]
pub struct WebhookServer {
    /// Where it listens.
    pub address: SocketAddr,
    /// The self-signed certificate's PEM, base64-encoded as a webhook configuration's
    /// `caBundle` takes it; `None` with `--webhook-cert-path`.
    pub ca_bundle: Option<String>,
    pub(super) task: JoinHandle<()>,
}

#[derive(Clone)]
struct Served {
    webhooks: Webhooks,
    metrics: Metrics,
}

/// The routes of the webhook server: every path of `webhooks`, 404 elsewhere.
pub fn webhook_routes(webhooks: Webhooks, metrics: Metrics) -> Router {
    Router::new()
        .fallback(serve_review)
        .with_state(Served { webhooks, metrics })
        .layer(DefaultBodyLimit::max(MAX_REQUEST_SIZE))
}

async fn serve_review(
    State(served): State<Served>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path();
    if !served.webhooks.paths().iter().any(|p| p == path) {
        return (StatusCode::NOT_FOUND, format!("no webhook at {path}\n")).into_response();
    }
    let measured = served.metrics.webhook_request(path);
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let (code, response) = if !content_type.starts_with("application/json") {
        let message = format!("contentType={content_type}, expected application/json\n");
        (400, (StatusCode::BAD_REQUEST, message).into_response())
    } else {
        match served.webhooks.handle(path, &body).await {
            Some((code, review)) => {
                let status = StatusCode::from_u16(code).unwrap_or(StatusCode::OK);
                let json = [(header::CONTENT_TYPE, "application/json")];
                (code, (status, json, review.to_string()).into_response())
            }
            None => (404, StatusCode::NOT_FOUND.into_response()),
        }
    };
    measured.finish(code);
    response
}

/// Binds `--webhook-port` on every interface of both families and serves `webhooks` until `shutdown`.
pub async fn spawn(
    webhooks: Webhooks,
    metrics: Metrics,
    options: &Options,
    shutdown: Shutdown,
) -> Result<WebhookServer, Error> {
    let source = CertificateSource {
        server: "webhook",
        dir: options.webhook_cert_path.as_deref(),
        name: &options.webhook_cert_name,
        key: &options.webhook_cert_key,
    };
    let (acceptor, self_signed) = tls::acceptor(source)?;
    let ca_bundle =
        self_signed.map(|pem| base64::engine::general_purpose::STANDARD.encode(pem.as_bytes()));
    if let Some(ca_bundle) = &ca_bundle {
        tracing::info!(
            %ca_bundle,
            "the webhook server's self-signed certificate: give it as the caBundle of the \
             webhook configurations to call this process"
        );
    }
    let address = super::listen::every_interface(options.webhook_port);
    let routes = webhook_routes(webhooks, metrics);
    let flag = "--webhook-port";
    let (address, task) = server::spawn(flag, address, routes, Some(acceptor), shutdown).await?;
    Ok(WebhookServer {
        address,
        ca_bundle,
        task,
    })
}
