//! When to retry a failed reconcile: controller-runtime's default controller rate limiter, the
//! longer of two delays:
//!
//! - the object's own exponential [`Backoff`] (5 ms doubling to 1000 s, forgotten on success
//!   or when the object is deleted), so one broken object backs off alone;
//! - an overall token bucket of 10 retries per second with bursts of 100, so that a cluster-wide
//!   failure (the API server refusing every write) does not turn into a retry storm.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use super::Backoff;
use super::token_bucket::TokenBucket;

/// Retries per second once the burst is spent (controller-runtime: 10).
pub const OVERALL_RATE: f64 = 10.0;
/// Retries at once before the overall rate applies (controller-runtime: 100).
pub const OVERALL_BURST: u32 = 100;

/// Retry delays of one controller's objects.
#[derive(Debug)]
pub struct RequeueRateLimiter {
    per_object: Backoff,
    overall: Mutex<TokenBucket>,
}

impl Default for RequeueRateLimiter {
    fn default() -> Self {
        RequeueRateLimiter {
            per_object: Backoff::default(),
            overall: Mutex::new(TokenBucket::new(OVERALL_RATE, OVERALL_BURST)),
        }
    }
}

impl RequeueRateLimiter {
    /// Records one more failure of `key` and returns how long to wait before retrying it.
    pub fn when(&self, key: &str) -> Duration {
        let own = self.per_object.next_delay(key);
        let overall = self
            .overall
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .reserve(Instant::now());
        own.max(overall)
    }

    /// Forgets the failures of `key`: it reconciled, or it is gone.
    pub fn forget(&self, key: &str) {
        self.per_object.reset(key);
    }

    /// How many objects are backing off.
    pub fn len(&self) -> usize {
        self.per_object.len()
    }

    /// Whether no object is backing off.
    pub fn is_empty(&self) -> bool {
        self.per_object.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_longer_of_the_objects_backoff_and_the_overall_bucket() {
        let limiter = RequeueRateLimiter::default();
        let first_failures: Vec<Duration> = (0..102)
            .map(|i| limiter.when(&format!("ns/object-{i}")))
            .collect();
        // A hundred objects fail at once: each waits its own 5 ms; the next ones queue behind
        // the overall bucket, a tenth of a second apart.
        assert!(
            first_failures[..100]
                .iter()
                .all(|d| *d == Duration::from_millis(5))
        );
        assert_eq!(first_failures[100], Duration::from_millis(100));
        assert_eq!(first_failures[101], Duration::from_millis(200));

        // Later, one object's own backoff is the longer.
        tokio::time::advance(Duration::from_secs(60)).await;
        let delays: Vec<Duration> = (0..8).map(|_| limiter.when("ns/object-0")).collect();
        assert_eq!(delays[7], Duration::from_millis(5 << 8));
        limiter.forget("ns/object-0");
        assert_eq!(limiter.when("ns/object-0"), Duration::from_millis(5));
        assert_eq!(limiter.len(), 102);
    }
}
