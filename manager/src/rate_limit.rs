//! A client-side token bucket, as client-go has (QPS sustained, burst on top): kube-rs sends
//! every request at once, which lets one busy controller starve an API server.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::time::{Instant, Sleep};

use super::token_bucket::TokenBucket;

/// A tower layer that delays requests beyond `qps` per second (after a burst of `burst`).
///
/// Waiting happens in `poll_ready`, so callers queue (in kube's request buffer) instead of
/// failing, as with client-go's rate limiter.
#[derive(Clone, Copy, Debug)]
pub struct RateLimitLayer {
    qps: f64,
    burst: u32,
}

impl RateLimitLayer {
    /// `qps` requests per second on average, up to `burst` at once. Both must be positive.
    pub fn new(qps: f64, burst: u32) -> Self {
        assert!(qps > 0.0 && burst > 0, "qps and burst must be positive");
        RateLimitLayer { qps, burst }
    }
}

impl<S> tower::Layer<S> for RateLimitLayer {
    type Service = RateLimit<S>;

    fn layer(&self, inner: S) -> RateLimit<S> {
        RateLimit {
            inner,
            bucket: TokenBucket::new(self.qps, self.burst),
            sleep: None,
            has_token: false,
        }
    }
}

/// The service of [`RateLimitLayer`].
pub struct RateLimit<S> {
    inner: S,
    bucket: TokenBucket,
    sleep: Option<Pin<Box<Sleep>>>,
    has_token: bool,
}

impl<S, R> tower::Service<R> for RateLimit<S>
where
    S: tower::Service<R>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        while !self.has_token {
            if let Some(sleep) = self.sleep.as_mut() {
                ready!(sleep.as_mut().poll(cx));
                self.sleep = None;
            }
            match self.bucket.take(Instant::now()) {
                Ok(()) => self.has_token = true,
                Err(wait) => self.sleep = Some(Box::pin(tokio::time::sleep(wait))),
            }
        }
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: R) -> S::Future {
        self.has_token = false;
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn the_layer_spaces_requests_out() {
        use tower::{Layer, Service, ServiceExt};
        let service =
            tower::service_fn(|()| async { Ok::<_, std::convert::Infallible>(Instant::now()) });
        let mut limited = RateLimitLayer::new(20.0, 2).layer(service);
        let start = Instant::now();
        let mut times = Vec::new();
        for _ in 0..4 {
            times.push(limited.ready().await.unwrap().call(()).await.unwrap() - start);
        }
        let millis: Vec<u128> = times.iter().map(Duration::as_millis).collect();
        assert_eq!(millis, [0, 0, 50, 100]);
    }
}
