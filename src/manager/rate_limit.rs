//! A client-side token bucket, as client-go has (QPS sustained, burst on top): kube-rs sends
//! every request at once, which lets one busy controller starve an API server.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

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

/// Tokens refill at `rate` per second up to `capacity`; each request takes one.
#[derive(Debug)]
struct TokenBucket {
    rate: f64,
    capacity: f64,
    tokens: f64,
    refilled: Option<Instant>,
}

impl TokenBucket {
    fn new(rate: f64, capacity: u32) -> Self {
        TokenBucket {
            rate,
            capacity: f64::from(capacity),
            tokens: f64::from(capacity),
            refilled: None,
        }
    }

    /// Takes a token, or says how long until one is there.
    fn take(&mut self, now: Instant) -> Result<(), Duration> {
        if let Some(last) = self.refilled {
            let earned = now.saturating_duration_since(last).as_secs_f64() * self.rate;
            self.tokens = (self.tokens + earned).min(self.capacity);
        }
        self.refilled = Some(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / self.rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(10.0, 3);
        for _ in 0..3 {
            assert_eq!(bucket.take(start), Ok(()));
        }
        let wait = bucket.take(start).unwrap_err();
        assert_eq!(wait, Duration::from_millis(100));
        assert_eq!(bucket.take(start + wait), Ok(()));
        // Idle time refills up to the burst, no further.
        let later = start + Duration::from_secs(60);
        for _ in 0..3 {
            assert_eq!(bucket.take(later), Ok(()));
        }
        assert!(bucket.take(later).is_err());
    }

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
