//! A token bucket, as `golang.org/x/time/rate` keeps one: tokens refill at `rate` per second up
//! to `capacity`. The client's rate limit waits for a token ([`TokenBucket::take`]); the requeue
//! rate limiter books one ahead and waits until it is due ([`TokenBucket::reserve`]).

use std::time::Duration;

use tokio::time::Instant;

/// Tokens refill at `rate` per second up to `capacity`.
#[derive(Debug)]
pub struct TokenBucket {
    rate: f64,
    capacity: f64,
    tokens: f64,
    refilled: Option<Instant>,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: f64, capacity: u32) -> Self {
        TokenBucket {
            rate,
            capacity: f64::from(capacity),
            tokens: f64::from(capacity),
            refilled: None,
        }
    }

    fn refill(&mut self, now: Instant) {
        if let Some(last) = self.refilled {
            let earned = now.saturating_duration_since(last).as_secs_f64() * self.rate;
            self.tokens = (self.tokens + earned).min(self.capacity);
        }
        self.refilled = Some(now.max(self.refilled.unwrap_or(now)));
    }

    /// Takes a token, or says how long until one is there (and takes none).
    pub fn take(&mut self, now: Instant) -> Result<(), Duration> {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / self.rate))
        }
    }

    /// Books the next token, even one not there yet, and says how long until it is: callers
    /// that reserve together are spaced out at the bucket's rate once the burst is spent.
    pub fn reserve(&mut self, now: Instant) -> Duration {
        self.refill(now);
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.rate)
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

    #[test]
    fn reservations_beyond_the_burst_wait_their_turn() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(10.0, 2);
        let waits: Vec<u128> = (0..5).map(|_| bucket.reserve(start).as_millis()).collect();
        assert_eq!(waits, [0, 0, 100, 200, 300]);
        // A second later ten tokens have come, three of them already booked.
        let later = start + Duration::from_secs(1);
        assert_eq!(bucket.reserve(later), Duration::ZERO);
    }
}
