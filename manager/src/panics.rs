//! A panic in a reconcile is a failed reconcile, as in controller-runtime: recovered, counted in
//! `controller_runtime_reconcile_panics_total`, logged, and retried with backoff, while the
//! controller goes on serving every other object. Without this, a panic would unwind through
//! kube-runtime's controller stream, which polls every reconcile in place, and stop the
//! controller for good.

use std::any::Any;
use std::fmt::{Debug, Display};
use std::panic::AssertUnwindSafe;

use futures::FutureExt;

/// Why a reconcile failed: the reconciler's error, or a panic.
#[derive(Debug)]
pub enum ReconcileError<E> {
    /// The reconciler returned this error.
    Failed(E),
    /// The reconciler panicked with this message.
    Panicked(String),
}

impl<E: Display> Display for ReconcileError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReconcileError::Failed(error) => error.fmt(f),
            // controller-runtime's wording.
            ReconcileError::Panicked(message) => write!(f, "panic: {message} [recovered]"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ReconcileError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReconcileError::Failed(error) => Some(error),
            ReconcileError::Panicked(_) => None,
        }
    }
}

/// The message a panic was raised with.
fn message(payload: Box<dyn Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// Runs `start`, which makes a future, turning a panic into `Err(message)`.
pub fn started<F>(start: impl FnOnce() -> F) -> Result<F, String> {
    std::panic::catch_unwind(AssertUnwindSafe(start)).map_err(message)
}

/// Runs what [`started`] made to its end, turning a panic (then or now) into `Err(message)`.
pub async fn finished<F: Future>(started: Result<F, String>) -> Result<F::Output, String> {
    AssertUnwindSafe(started?)
        .catch_unwind()
        .await
        .map_err(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn panics_before_and_inside_the_future_are_caught() {
        let ok = finished(started(|| async { 7 })).await;
        assert_eq!(ok, Ok(7));
        let eager = started(|| -> std::future::Ready<()> { panic!("at once") });
        assert_eq!(finished(eager).await, Err("at once".to_owned()));
        let late = finished(started(|| async {
            tokio::task::yield_now().await;
            panic!("object {} is odd", 3)
        }))
        .await;
        assert_eq!(late, Err("object 3 is odd".to_owned()));
        let error = ReconcileError::<std::io::Error>::Panicked("boom".to_owned());
        assert_eq!(error.to_string(), "panic: boom [recovered]");
    }
}
