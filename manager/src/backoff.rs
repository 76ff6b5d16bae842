//! Per-object exponential backoff after failed reconciles, as controller-runtime's default rate
//! limiter: 5 ms, 10 ms, 20 ms, ... up to 1000 s, forgotten on the first success.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The first retry delay.
pub const BASE_DELAY: Duration = Duration::from_millis(5);
/// The longest retry delay.
pub const MAX_DELAY: Duration = Duration::from_secs(1000);

/// Failure counts per object (by `namespace/name`).
#[derive(Debug, Default)]
pub struct Backoff {
    failures: Mutex<HashMap<String, u32>>,
}

impl Backoff {
    /// Records one more failure of `key` and returns how long to wait before retrying it.
    pub fn next_delay(&self, key: &str) -> Duration {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let count = failures.entry(key.to_owned()).or_default();
        let delay = delay_after(*count);
        *count = count.saturating_add(1);
        delay
    }

    /// Forgets the failures of `key` (it reconciled successfully).
    pub fn reset(&self, key: &str) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.remove(key);
    }

    /// How many objects are currently backing off.
    pub fn len(&self) -> usize {
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// Whether no object is backing off.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `BASE_DELAY · 2^failures`, capped at `MAX_DELAY`.
fn delay_after(failures: u32) -> Duration {
    let factor = 2u32.checked_pow(failures.min(31)).unwrap_or(u32::MAX);
    BASE_DELAY
        .checked_mul(factor)
        .map_or(MAX_DELAY, |d| d.min(MAX_DELAY))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_per_failure_up_to_the_cap_and_resets() {
        let backoff = Backoff::default();
        let delays: Vec<_> = (0..4).map(|_| backoff.next_delay("ns/a")).collect();
        assert_eq!(delays, [5, 10, 20, 40].map(Duration::from_millis));
        assert_eq!(backoff.next_delay("ns/b"), BASE_DELAY, "per object");
        for _ in 0..40 {
            backoff.next_delay("ns/a");
        }
        assert_eq!(backoff.next_delay("ns/a"), MAX_DELAY);
        backoff.reset("ns/a");
        assert_eq!(backoff.next_delay("ns/a"), BASE_DELAY);
        assert_eq!(backoff.len(), 2);
    }
}
