//! The manager's HTTP endpoints (axum): `/metrics` on the metrics address, `/healthz` and
//! `/readyz` on the probe address. Both stop with the manager's shutdown.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::task::JoinHandle;

use super::{Error, Metrics, Readiness, Shutdown};

/// The routes of the metrics endpoint.
pub fn metrics_routes(metrics: Metrics) -> Router {
    Router::new()
        .route("/metrics", get(serve_metrics))
        .with_state(metrics)
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
        let body = format!("caches not synced yet: {}\n", pending.join(", "));
        (StatusCode::SERVICE_UNAVAILABLE, body)
    }
}

/// Binds `address` and serves `routes` on a task until `shutdown`. Returns the bound address
/// (useful with port 0) and the task.
pub async fn spawn(
    flag: &'static str,
    address: SocketAddr,
    routes: Router,
    shutdown: Shutdown,
) -> Result<(SocketAddr, JoinHandle<()>), Error> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|source| Error::Bind {
            flag,
            address,
            source,
        })?;
    let bound = listener.local_addr().map_err(|source| Error::Bind {
        flag,
        address,
        source,
    })?;
    tracing::info!(address = %bound, "serving {flag}");
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, routes)
            .with_graceful_shutdown(shutdown.wait())
            .await;
        if let Err(error) = served {
            tracing::error!(%error, address = %bound, "{flag} server failed");
        }
    });
    Ok((bound, task))
}
