//! The HTTP endpoints: `/metrics` on the metrics address (HTTPS with authentication and
//! authorization unless `--metrics-secure=false`), `/healthz` and `/readyz` on the probe address.
//!
//! Every connection is bounded in time as controller-runtime bounds its servers: the TLS
//! handshake and each request's header must arrive within [`HEADER_READ_TIMEOUT`]; hyper starts
//! the same clock when a kept-alive connection goes idle, so an idle connection is closed after
//! it too. The servers stop when told (last, in [`Manager::run`](crate::Manager::run)), letting
//! requests in flight finish.

use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{JoinHandle, JoinSet};
use tokio_rustls::TlsAcceptor;
use tower::Service;

use super::metrics_auth::{self, MetricsAuth};
use super::{Error, Metrics, Readiness, Shutdown};

/// How long a client may take to complete its TLS handshake or send a request's header, and how
/// long a kept-alive connection may stay idle (controller-runtime's `ReadHeaderTimeout`: 32 s).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(32);

/// Connections one server holds at once; more wait to be accepted, as behind Go's
/// `netutil.LimitListener`. Each may buffer a header of up to hyper's ~400 KB, so this bounds
/// what idle or slow clients can hold (about 100 MiB at worst) while leaving the API server
/// far more connections than its webhook calls use.
pub const MAX_CONNECTIONS: usize = 256;

/// The routes of the metrics endpoint; with `auth`, only for authorized scrapers.
pub fn metrics_routes(metrics: Metrics, auth: Option<MetricsAuth>) -> Router {
    let routes = Router::new()
        .route("/metrics", get(serve_metrics))
        .with_state(metrics);
    match auth {
        // Only on the routes served, so that a scraper's identity can be asked about one
        // path (and its verbs), not one per path it makes up.
        Some(auth) => routes.route_layer(axum::middleware::from_fn_with_state(
            auth,
            metrics_auth::require,
        )),
        None => routes,
    }
}

/// The routes of the probe endpoint.
pub fn probe_routes(readiness: Readiness) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(serve_readyz))
        .with_state(readiness)
}

async fn serve_metrics(State(metrics): State<Metrics>, headers: HeaderMap) -> impl IntoResponse {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let (content_type, text) = metrics.encode_for(accept);
    ([(header::CONTENT_TYPE, content_type)], text)
}

async fn serve_readyz(State(readiness): State<Readiness>) -> (StatusCode, String) {
    let pending = readiness.pending();
    if pending.is_empty() {
        (StatusCode::OK, "ok\n".to_owned())
    } else {
        let body = format!("not started yet: {}\n", pending.join(", "));
        (StatusCode::SERVICE_UNAVAILABLE, body)
    }
}

/// Binds `address` (both families for `[::]`) and serves `routes` (over TLS with `tls`) on a
/// task until `shutdown`.
/// Returns the bound address (useful with port 0) and the task.
pub async fn spawn(
    flag: &'static str,
    address: SocketAddr,
    routes: Router,
    tls: Option<TlsAcceptor>,
    shutdown: Shutdown,
) -> Result<(SocketAddr, JoinHandle<()>), Error> {
    let bind_error = |source| Error::Bind {
        flag,
        address,
        source,
    };
    let listener = super::listen::bind(address).await.map_err(bind_error)?;
    let bound = listener.local_addr().map_err(bind_error)?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    tracing::info!(address = %bound, scheme, "serving {flag}");
    let task = tokio::spawn(async move {
        let mut connections = JoinSet::new();
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        loop {
            let accepted = tokio::select! {
                accepted = accept(&listener, &slots) => accepted,
                () = shutdown.wait() => break,
            };
            match accepted {
                Ok((stream, slot)) => {
                    let connection =
                        connection(stream, routes.clone(), tls.clone(), shutdown.clone());
                    connections.spawn(async move {
                        connection.await;
                        drop(slot);
                    });
                }
                Err(error) => {
                    // Out of file descriptors, usually: wait instead of spinning.
                    tracing::warn!(%error, address = %bound, "{flag}: cannot accept");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            while connections.try_join_next().is_some() {}
        }
        // Closed before the connections drain: a new client is refused at once instead of
        // waiting in the backlog for an answer that never comes.
        drop(listener);
        while connections.join_next().await.is_some() {}
    });
    Ok((bound, task))
}

/// The next connection once fewer than [`MAX_CONNECTIONS`] are open, with its slot. Replies
/// go out as soon as they are written (`TCP_NODELAY`): without it, Nagle's algorithm holds the
/// first reply on a new TLS connection for the client's delayed ACK (about 40 ms).
async fn accept(
    listener: &tokio::net::TcpListener,
    slots: &Arc<Semaphore>,
) -> std::io::Result<(tokio::net::TcpStream, OwnedSemaphorePermit)> {
    let Ok(slot) = slots.clone().acquire_owned().await else {
        unreachable!("the semaphore is never closed")
    };
    let (stream, _) = listener.accept().await?;
    stream.set_nodelay(true)?;
    Ok((stream, slot))
}

/// Serves one connection: the TLS handshake first, if any, within the header timeout.
async fn connection(
    stream: tokio::net::TcpStream,
    routes: Router,
    tls: Option<TlsAcceptor>,
    shutdown: Shutdown,
) {
    let Some(tls) = tls else {
        return serve_http(TokioIo::new(stream), routes, shutdown).await;
    };
    match tokio::time::timeout(HEADER_READ_TIMEOUT, tls.accept(stream)).await {
        Ok(Ok(stream)) => serve_http(TokioIo::new(stream), routes, shutdown).await,
        Ok(Err(error)) => tracing::debug!(%error, "TLS handshake failed"),
        Err(_) => tracing::debug!("TLS handshake timed out"),
    }
}

/// HTTP/1.1 on one connection until the client is done, a timeout strikes, or the shutdown.
async fn serve_http<I>(io: I, routes: Router, shutdown: Shutdown)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        routes.clone().call(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    let mut connection = pin!(builder.serve_connection(io, service));
    let served = tokio::select! {
        served = connection.as_mut() => served,
        () = shutdown.wait() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = served {
        tracing::debug!(%error, "connection ended with an error");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_connections_send_without_delay_and_hold_a_slot() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let slots = Arc::new(Semaphore::new(1));
        let _client = tokio::net::TcpStream::connect(address).await.unwrap();
        let (stream, slot) = accept(&listener, &slots).await.unwrap();
        assert!(stream.nodelay().unwrap(), "TCP_NODELAY is set");
        assert_eq!(slots.available_permits(), 0);
        drop(slot);
        assert_eq!(slots.available_permits(), 1);
    }
}
