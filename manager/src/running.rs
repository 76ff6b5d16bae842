//! Running an operator: serve the endpoints, lead (with `--leader-elect`), run the controllers,
//! and shut down within `--graceful-shutdown-timeout`:
//!
//! 1. SIGTERM (or [`Manager::shutdown`]) stops the controllers from starting reconciles; the
//!    running ones finish;
//! 2. the Lease is released as soon as no reconcile runs, so that a standby takes over at its
//!    next look, before the slower steps;
//! 3. the HTTP servers (webhooks, metrics, probes) stop last, as controller-runtime's
//!    `engageStopProcedure` stops them: until the Pod is gone the API server still routes
//!    admission and conversion calls to it, and the kubelet still probes it.
//!
//! Reconciles still running at the deadline are dropped (cancelled at their next `.await`)
//! before the Lease is released, and the manager returns [`Error::ShutdownTimeout`].

use std::pin::{Pin, pin};

use tokio::time::{Instant, timeout_at};

use super::elector::Elector;
use super::leader::{Leadership, Timings, identity, lease_namespace};
use super::lease_lock::LeaseLock;
use super::{Error, Manager, Shutdown};

/// How the controllers came to a stop.
enum Stopped {
    /// They ended (after the shutdown started, or on their own).
    Finished,
    /// Some were still running at the graceful-shutdown deadline, and were dropped.
    TimedOut,
    /// The Lease was lost: they were dropped at once.
    LostLease,
}

impl Manager {
    /// Runs the operator until SIGTERM/SIGINT: serves the endpoints, waits for the Lease with
    /// `--leader-elect`, then runs `controllers` until shutdown (they must stop on
    /// [`Manager::shutdown_signal`]), releases the Lease and stops the servers, all within
    /// `--graceful-shutdown-timeout` of the signal.
    ///
    /// Losing the Lease returns [`Error::LostLease`] at once: the process should exit, as a
    /// controller-runtime manager does, so that two replicas never reconcile together.
    pub async fn run<F, Fut>(self, controllers: F) -> Result<(), Error>
    where
        F: FnOnce(Manager) -> Fut,
        Fut: Future<Output = ()>,
    {
        self.options().validate()?;
        self.trigger_shutdown_on_signals();
        let stop_servers = Shutdown::default();
        let servers = self.serve_until(&stop_servers).await?;
        let outcome = self.lead(controllers).await;
        self.shutdown();
        stop_servers.trigger();
        let deadline = self.deadline();
        servers.stopped_by(deadline).await;
        if outcome.is_ok() && Instant::now() >= deadline {
            return Err(self.timed_out());
        }
        tracing::info!("manager stopped");
        outcome
    }

    /// When the shutdown must be over (the shutdown has started when this is asked).
    fn deadline(&self) -> Instant {
        self.shutdown_deadline()
            .unwrap_or_else(|| Instant::now() + self.options().graceful_shutdown_timeout)
    }

    fn timed_out(&self) -> Error {
        Error::ShutdownTimeout(self.options().graceful_shutdown_timeout)
    }

    /// Runs `controllers` (while leading, with `--leader-elect`) until the shutdown, then waits
    /// for them until the deadline and releases the Lease.
    async fn lead<F, Fut>(&self, controllers: F) -> Result<(), Error>
    where
        F: FnOnce(Manager) -> Fut,
        Fut: Future<Output = ()>,
    {
        let options = self.options();
        if !options.leader_elect {
            let running = Box::pin(controllers(self.clone()));
            return match self.stop(running, std::future::pending()).await {
                Stopped::Finished => Ok(()),
                _ => Err(self.timed_out()),
            };
        }
        let client = self.own_client();
        let namespace = lease_namespace(options.leader_election_namespace.as_deref(), &client);
        let name = self.leader_election_id();
        let timings = Timings::of(options);
        let elector = Elector::new(
            LeaseLock::new(client, &namespace, name),
            identity(),
            timings.lease_duration,
        );
        let metrics = self.metrics().leader_election(name);
        let mut leadership = Leadership::start(elector, timings, metrics);
        // The release gets at least one retry period, even past the deadline: without it a
        // standby waits a whole lease duration.
        let release_by = |manager: &Manager| {
            manager
                .deadline()
                .max(Instant::now() + timings.retry_period)
        };
        let acquired = tokio::select! {
            acquired = leadership.acquired() => Some(acquired),
            () = self.shutdown_signal() => None,
        };
        let Some(acquired) = acquired else {
            leadership.release(release_by(self)).await;
            return Ok(());
        };
        acquired?;
        let running = Box::pin(controllers(self.clone()));
        let outcome = match self.stop(running, leadership.lost()).await {
            Stopped::Finished => Ok(()),
            Stopped::TimedOut => Err(self.timed_out()),
            // Nothing to release: the Lease is, or soon will be, someone else's.
            Stopped::LostLease => return Err(Error::LostLease(leadership.lease().to_owned())),
        };
        leadership.release(release_by(self)).await;
        outcome
    }

    /// Runs `running` until it ends or the shutdown starts, then gives it until the deadline;
    /// `lost` ends it at once. `running` is dropped when this returns: nothing of it runs on.
    async fn stop(
        &self,
        mut running: Pin<Box<impl Future<Output = ()>>>,
        lost: impl Future<Output = ()>,
    ) -> Stopped {
        let mut lost = pin!(lost);
        tokio::select! {
            () = &mut running => return Stopped::Finished,
            () = &mut lost => return Stopped::LostLease,
            () = self.shutdown_signal() => {}
        }
        tracing::info!(
            timeout = ?self.options().graceful_shutdown_timeout,
            "shutting down: waiting for running reconciles"
        );
        tokio::select! {
            finished = timeout_at(self.deadline(), &mut running) => match finished {
                Ok(()) => Stopped::Finished,
                Err(_) => {
                    tracing::error!(
                        "reconciles still running at the graceful-shutdown timeout were abandoned"
                    );
                    Stopped::TimedOut
                }
            },
            () = &mut lost => Stopped::LostLease,
        }
    }
}
