//! The thread that answers the largest reviews, one after another.
//!
//! A review of a body of megabytes builds a hundred megabytes and more of JSON and typed
//! objects, and the allocator keeps what a thread freed for that thread's later allocations.
//! Answered on whichever blocking thread is free, a series of them leaves a copy of the peak
//! behind on each (20 reviews of 6.9 MB, one at a time, reached 320 MiB). On one thread, each
//! reuses the memory of the one before.

use std::sync::OnceLock;
use std::sync::mpsc::{self, Sender};

use super::panics::started;

type Job = Box<dyn FnOnce() + Send>;

/// The thread's queue, the thread started with the first review that needs it.
fn queue() -> &'static Sender<Job> {
    static QUEUE: OnceLock<Sender<Job>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (sender, jobs) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("webop-large-reviews".to_owned())
            .spawn(move || jobs.into_iter().for_each(|job| job()))
            .expect("a thread for the largest reviews can be started");
        sender
    })
}

/// Runs `work` on the large-review thread: its result, or the message of its panic.
pub(crate) async fn answer<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (done, result) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = done.send(started(work));
    });
    queue()
        .send(job)
        .map_err(|_| "the large-review thread has stopped".to_owned())?;
    result
        .await
        .map_err(|_| "the large-review thread dropped the review".to_owned())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reviews_run_on_one_thread_and_a_panic_is_an_error() {
        let first = answer(|| std::thread::current().id()).await.unwrap();
        let second = answer(|| std::thread::current().id()).await.unwrap();
        assert_eq!(first, second);
        assert_ne!(first, std::thread::current().id());
        let panicked = answer(|| -> u8 { panic!("bad review") }).await;
        assert_eq!(panicked, Err("bad review".to_owned()));
        assert_eq!(answer(|| 7).await, Ok(7), "the thread outlives a panic");
    }
}
