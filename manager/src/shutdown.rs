//! One shutdown signal for the whole manager: SIGTERM/SIGINT, or [`Shutdown::trigger`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;
use tokio::time::Instant;

/// A latch every part of the manager waits on. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Shutdown {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    triggered: AtomicBool,
    /// When the shutdown started: the graceful-shutdown timeout counts from there.
    started: Mutex<Option<Instant>>,
    notify: Notify,
}

impl Shutdown {
    /// Starts the shutdown (idempotent).
    pub fn trigger(&self) {
        self.inner
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(Instant::now);
        self.inner.triggered.store(true, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }

    /// Whether the shutdown has started.
    pub fn is_triggered(&self) -> bool {
        self.inner.triggered.load(Ordering::SeqCst)
    }

    /// When the shutdown started, if it has.
    pub fn started_at(&self) -> Option<Instant> {
        *self.inner.started.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Resolves once the shutdown has started. `Send + Sync`, as kube-runtime's
    /// `Controller::graceful_shutdown_on` requires.
    pub fn wait(&self) -> impl Future<Output = ()> + Send + Sync + 'static {
        let inner = self.inner.clone();
        async move {
            loop {
                // Created before the check: `notify_waiters` reaches it even before it is polled.
                let notified = inner.notify.notified();
                if inner.triggered.load(Ordering::SeqCst) {
                    return;
                }
                notified.await;
            }
        }
    }

    /// Triggers the shutdown on SIGTERM or SIGINT; a second signal exits at once (status 1), as
    /// controller-runtime does.
    pub fn trigger_on_signals(&self) {
        let shutdown = self.clone();
        tokio::spawn(async move {
            terminate_or_interrupt().await;
            tracing::info!("shutdown requested; a second signal exits at once");
            shutdown.trigger();
            terminate_or_interrupt().await;
            tracing::warn!("second signal: exiting without waiting");
            std::process::exit(1);
        });
    }
}

async fn terminate_or_interrupt() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; only Ctrl-C stops the manager");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiters_before_and_after_the_trigger_resolve() {
        let shutdown = Shutdown::default();
        let early = tokio::spawn(shutdown.wait());
        tokio::task::yield_now().await;
        assert!(!shutdown.is_triggered());
        assert_eq!(shutdown.started_at(), None);
        shutdown.trigger();
        let started = shutdown.started_at().unwrap();
        shutdown.trigger();
        assert_eq!(
            shutdown.started_at(),
            Some(started),
            "the first trigger counts"
        );
        early.await.unwrap();
        shutdown.wait().await;
    }
}
