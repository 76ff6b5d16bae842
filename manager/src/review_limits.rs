//! How much review work the webhook server takes on at once: a cap on the reviews in flight
//! and on the memory they may hold, taken before a body is read, so that the Pod's memory
//! limit holds under any sequence of requests the body limit allows. A review's memory is a
//! multiple of its body (the body, the parsed JSON, the typed object, the defaulted JSON), so
//! each review is counted at [`MEMORY_PER_BODY_BYTE`] times its body; the count bounds the
//! threads reviews run on.
//!
//! Reviews run off the async workers (see `webhook_server`): decoding, the user's webhook and
//! the patch of a 7 MiB object take CPU for a while, and the Lease renewal and `/healthz` must
//! not wait behind them.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Reviews answered at once; more wait for a turn.
pub const REVIEWS_IN_FLIGHT: u32 = 16;

/// How many bytes of memory a review holds at its peak for each byte of its body. Measured
/// with `manager/tests/hostile_load`: eight reviews of 69,000 labels (1.7 MB each) answered at
/// once added 285 MiB, 21 times their bodies (the parsed JSON of a label is about 8 times its
/// text, its typed copy 4 times, and the JSON of the defaulted object is made while both live).
pub const MEMORY_PER_BODY_BYTE: u32 = 21;

/// Memory reviews may hold at once, in KiB. A review larger than that (from a body of 3 MiB
/// up) runs alone, the few-KiB reviews the API server usually sends run 16 at a time. With the
/// operator's own memory and what the allocator keeps of earlier reviews, the scaffolded 256 MiB
/// limit holds: a review at the 7 MiB body limit alone takes up to 180 MiB (20 of them, one
/// at a time, took the operator from 43 to 224 MiB in `manager/tests/hostile_load`).
pub const KIB_IN_FLIGHT: u32 = 64 * 1024;

/// How long a review may wait for its turn: the API server's longest webhook timeout (30 s);
/// past it, no one waits for the answer.
pub const QUEUE_TIMEOUT: Duration = Duration::from_secs(30);

/// The budgets of one webhook server. Cheap to clone.
#[derive(Clone, Debug)]
pub struct ReviewLimits {
    reviews: Arc<Semaphore>,
    kib: Arc<Semaphore>,
    max_kib: u32,
}

/// A review's share of the budgets, given back when dropped.
#[derive(Debug)]
pub struct Turn {
    _review: OwnedSemaphorePermit,
    _kib: OwnedSemaphorePermit,
    alone: bool,
}

impl Turn {
    /// Whether the review takes the whole memory budget: no other review runs beside it.
    pub fn alone(&self) -> bool {
        self.alone
    }
}

impl Default for ReviewLimits {
    fn default() -> Self {
        Self::new(REVIEWS_IN_FLIGHT, KIB_IN_FLIGHT)
    }
}

impl ReviewLimits {
    /// At most `reviews` reviews, holding at most `kib` KiB of memory, at once.
    pub fn new(reviews: u32, kib: u32) -> Self {
        ReviewLimits {
            reviews: Arc::new(Semaphore::new(reviews as usize)),
            kib: Arc::new(Semaphore::new(kib as usize)),
            max_kib: kib,
        }
    }

    /// Waits (up to [`QUEUE_TIMEOUT`]) until a review of up to `bytes` may be read and
    /// answered; `None` when its turn did not come in time. A review whose memory exceeds the
    /// whole budget takes all of it.
    pub async fn turn(&self, bytes: usize) -> Option<Turn> {
        let memory = bytes.saturating_mul(MEMORY_PER_BODY_BYTE as usize);
        let kib = u32::try_from(memory.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .clamp(1, self.max_kib);
        let wait = async {
            // The count first: a review waiting for bytes holds no thread.
            let review = self.reviews.clone().acquire_owned().await.ok()?;
            let memory = self.kib.clone().acquire_many_owned(kib).await.ok()?;
            Some(Turn {
                _review: review,
                _kib: memory,
                alone: kib == self.max_kib,
            })
        };
        tokio::time::timeout(QUEUE_TIMEOUT, wait)
            .await
            .ok()
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn large_reviews_wait_for_memory_small_ones_for_a_slot() {
        // Room for one review of 7 MiB (147 MiB of memory), not two.
        let limits = ReviewLimits::new(3, 200 * 1024);
        let first = limits
            .turn(7 * 1024 * 1024)
            .await
            .expect("the budget is free");
        // A second large review does not fit beside the first; a small one does.
        let small = limits.turn(2 * 1024).await.expect("2 KiB fit beside 7 MiB");
        let second = tokio::spawn({
            let limits = limits.clone();
            async move { limits.turn(7 * 1024 * 1024).await.is_some() }
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(!second.is_finished(), "2 × 147 MiB exceed 200 MiB");
        drop(first);
        assert!(
            second.await.unwrap(),
            "its turn comes once the first is answered"
        );

        // All slots taken: the next review gives up at the queue timeout.
        let _held = [
            small,
            limits.turn(1).await.unwrap(),
            limits.turn(1).await.unwrap(),
        ];
        assert!(limits.turn(1).await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_review_larger_than_the_budget_takes_all_of_it() {
        let limits = ReviewLimits::new(4, 64 * 1024);
        let all = limits
            .turn(4 * 1024 * 1024)
            .await
            .expect("clamped to the budget");
        assert!(limits.turn(1).await.is_none());
        drop(all);
        assert!(limits.turn(1).await.is_some());
    }
}
