//! The webhook server (feature `webhook`): HTTPS on `--webhook-port`, the certificate of
//! `--webhook-cert-path` reloaded on rotation (or a self-signed one), each review posted to a
//! webhook's path answered by [`Webhooks::handle`] and counted in
//! `controller_runtime_webhook_*`. Same connection limits and HTTP/1.1 as the metrics server.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use http_body_util::BodyExt;
use tokio::task::JoinHandle;

use super::review_limits::ReviewLimits;
use super::review_thread;
use super::tls::{self, CertificateSource};
use super::{Error, Metrics, Options, Shutdown, server};
use webop_core::webhook::Webhooks;

/// The largest review accepted (controller-runtime's `maxRequestSize`: 7 MiB, above the API
/// server's 3 MiB objects in an old/new pair).
const MAX_REQUEST_SIZE: usize = 7 * 1024 * 1024;

/// How long a review's body may take to arrive once its header has: the API server's longest
/// webhook timeout (30 s), after which it no longer waits for the answer. A body trickled in
/// slower only holds a connection and a share of the review budget.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);

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
    limits: ReviewLimits,
}

/// The routes of the webhook server: every path of `webhooks`, 404 elsewhere.
pub fn webhook_routes(webhooks: Webhooks, metrics: Metrics) -> Router {
    let limits = ReviewLimits::default();
    Router::new().fallback(serve_review).with_state(Served {
        webhooks,
        metrics,
        limits,
    })
}

async fn serve_review(State(served): State<Served>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    if !served.webhooks.paths().contains(&path) {
        return (StatusCode::NOT_FOUND, format!("no webhook at {path}\n")).into_response();
    }
    let measured = served.metrics.webhook_request(&path);
    let (code, response) = match answer(&served, path, request).await {
        Ok(answered) => answered,
        Err((status, message)) => {
            let response = (status, format!("{message}\n")).into_response();
            (status.as_u16(), response)
        }
    };
    measured.finish(code);
    response
}

type Refusal = (StatusCode, String);

/// The review's answer: its status and response, or why it was refused before a webhook saw
/// it.
async fn answer(
    served: &Served,
    path: String,
    request: Request,
) -> Result<(u16, Response), Refusal> {
    let headers = request.headers();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !is_json(content_type) {
        let message = format!("contentType={content_type}, expected application/json");
        return Err((StatusCode::BAD_REQUEST, message));
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|length| length > MAX_REQUEST_SIZE) {
        return Err(too_large());
    }
    let Some(turn) = served
        .limits
        .turn(declared.unwrap_or(MAX_REQUEST_SIZE))
        .await
    else {
        let message = "too many reviews in flight; try again".to_owned();
        return Err((StatusCode::TOO_MANY_REQUESTS, message));
    };
    let body = read_body(request.into_body()).await?;
    let webhooks = served.webhooks.clone();
    let runtime = tokio::runtime::Handle::current();
    // On a thread of its own: the review's CPU work (parsing, decoding, the patch, the reply)
    // and the user's webhook cannot hold an async worker, which the Lease renewal and the
    // probes need. The runtime still drives the webhook's I/O and timers. A review that takes
    // the whole memory budget runs on the one thread for those (see `review_thread`).
    let review = move || {
        let (code, review) = runtime.block_on(webhooks.handle(&path, &body))?;
        drop(body);
        Some((code, review.to_string()))
    };
    let answered = if turn.alone() {
        review_thread::answer(review).await
    } else {
        let answered = tokio::task::spawn_blocking(review).await;
        answered.map_err(|error| error.to_string())
    };
    drop(turn);
    match answered {
        Ok(Some((code, review))) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::OK);
            let json = [(header::CONTENT_TYPE, "application/json")];
            Ok((code, (status, json, review).into_response()))
        }
        Ok(None) => Ok((404, StatusCode::NOT_FOUND.into_response())),
        Err(error) => {
            tracing::error!(%error, "a webhook panicked");
            let message = "the webhook failed".to_owned();
            Err((StatusCode::INTERNAL_SERVER_ERROR, message))
        }
    }
}

/// Whether `content_type` is JSON: the media type exactly (in any case, as media types are),
/// with or without parameters (`; charset=utf-8`).
fn is_json(content_type: &str) -> bool {
    let media_type = content_type.split(';').next().unwrap_or_default();
    media_type.trim().eq_ignore_ascii_case("application/json")
}

fn too_large() -> Refusal {
    let message = format!("request entity is too large; limit is {MAX_REQUEST_SIZE} bytes");
    (StatusCode::PAYLOAD_TOO_LARGE, message)
}

/// The body, if it arrives within [`BODY_READ_TIMEOUT`] and [`MAX_REQUEST_SIZE`].
async fn read_body(body: Body) -> Result<Bytes, Refusal> {
    let limited = http_body_util::Limited::new(body, MAX_REQUEST_SIZE);
    match tokio::time::timeout(BODY_READ_TIMEOUT, limited.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(error)) => Err((
            StatusCode::BAD_REQUEST,
            format!("cannot read the body: {error}"),
        )),
        Err(_) => Err((
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the body did not arrive within {} s",
                BODY_READ_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Binds `--webhook-port` on every interface of both families and serves `webhooks` until
/// `shutdown`.
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
