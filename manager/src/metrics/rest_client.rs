//! client-go's REST client metrics, for the manager's `kube::Client`: every request counted by
//! status code, method and host (`rest_client_requests_total`, which controller-runtime
//! registers), and its latency by verb and host (`rest_client_request_duration_seconds`).
//! Measured below the client-side rate limiter, as client-go measures them: the time a request
//! waits for its turn is not latency of the API server.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use tokio::time::Instant;

/// client-go's latency buckets, in seconds.
const LATENCY_BUCKETS: [f64; 12] = [
    0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    code: String,
    method: String,
    host: Arc<str>,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LatencyLabels {
    verb: String,
    host: Arc<str>,
}

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

/// The REST client families.
#[derive(Clone)]
pub(super) struct RestClientFamilies {
    requests: Family<RequestLabels, Counter>,
    latency: Family<LatencyLabels, Histogram, fn() -> Histogram>,
}

impl RestClientFamilies {
    pub(super) fn register(registry: &mut Registry) -> Self {
        let families = RestClientFamilies {
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
        };
        registry.register(
            "rest_client_requests",
            "Number of HTTP requests, partitioned by status code, method, and host",
            families.requests.clone(),
        );
        registry.register_with_unit(
            "rest_client_request_duration",
            "Request latency in seconds. Broken down by verb and host",
            Unit::Seconds,
            families.latency.clone(),
        );
        families
    }

    pub(super) fn layer(&self, host: &str) -> RestClientMetricsLayer {
        RestClientMetricsLayer {
            families: self.clone(),
            host: host.into(),
        }
    }
}

/// A tower layer that records every request of a client to the API server `host`.
#[derive(Clone)]
pub struct RestClientMetricsLayer {
    families: RestClientFamilies,
    host: Arc<str>,
}

impl std::fmt::Debug for RestClientMetricsLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestClientMetricsLayer")
            .field("host", &self.host)
            .finish_non_exhaustive()
    }
}

impl<S> tower::Layer<S> for RestClientMetricsLayer {
    type Service = RestClientMetrics<S>;

    fn layer(&self, inner: S) -> RestClientMetrics<S> {
        RestClientMetrics {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service of [`RestClientMetricsLayer`].
#[derive(Clone, Debug)]
pub struct RestClientMetrics<S> {
    inner: S,
    layer: RestClientMetricsLayer,
}

impl<S, B, R> tower::Service<http::Request<B>> for RestClientMetrics<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let method = request.method().as_str().to_owned();
        let layer = self.layer.clone();
        let started = Instant::now();
        let responding = self.inner.call(request);
        Box::pin(async move {
            let result = responding.await;
            let code = match &result {
                Ok(response) => response.status().as_u16().to_string(),
                Err(_) => "<error>".to_owned(),
            };
            let host = layer.host.clone();
            let latency = LatencyLabels {
                verb: method.clone(),
                host: host.clone(),
            };
            layer
                .families
                .latency
                .get_or_create(&latency)
                .observe(started.elapsed().as_secs_f64());
            let labels = RequestLabels { code, method, host };
            layer.families.requests.get_or_create(&labels).inc();
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Metrics;
    use tower::{Layer, Service, ServiceExt};

    #[tokio::test]
    async fn requests_are_counted_by_code_method_and_host() {
        let metrics = Metrics::new();
        let mut service = metrics
            .rest_client_layer("10.96.0.1:443")
            .layer(tower::service_fn(|request: http::Request<()>| async move {
                let code = if request.uri().path() == "/missing" {
                    404
                } else {
                    200
                };
                let response = http::Response::builder().status(code).body(()).unwrap();
                Ok::<_, std::convert::Infallible>(response)
            }));
        for path in ["/api", "/api", "/missing"] {
            let request = http::Request::get(path).body(()).unwrap();
            service.ready().await.unwrap().call(request).await.unwrap();
        }
        let text = metrics.encode();
        for line in [
            "rest_client_requests_total{code=\"200\",method=\"GET\",host=\"10.96.0.1:443\"} 2",
            "rest_client_requests_total{code=\"404\",method=\"GET\",host=\"10.96.0.1:443\"} 1",
            "rest_client_request_duration_seconds_count{verb=\"GET\",host=\"10.96.0.1:443\"} 3",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
        }
    }
}
