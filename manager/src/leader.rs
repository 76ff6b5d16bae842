//! Leader election, as client-go runs it: a standby looks at the Lease every retry period and
//! takes it once it is free or expired; the leader renews it every retry period, and if no
//! renewal has succeeded for the renew deadline, whatever the reason (errors, conflicts, or
//! requests that never return), it stops leading. The renew deadline is shorter than the lease
//! duration, so a leader cut off from the API server stops before any standby may take over.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use kube::Client;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, sleep_until, timeout_at};

use super::elector::{Attempt, Elector};
use super::metrics::LeaderElectionMetrics;
use super::{Error, Options};

/// The namespace a Pod runs in, as its service account mounts it.
const POD_NAMESPACE_FILE: &str = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

/// The Lease's namespace: the flag, else `POD_NAMESPACE`, else the Pod's service-account
/// namespace, else the client's default namespace.
pub fn lease_namespace(flag: Option<&str>, client: &Client) -> String {
    if let Some(namespace) = flag {
        return namespace.to_owned();
    }
    if let Ok(namespace) = std::env::var("POD_NAMESPACE") {
        return namespace;
    }
    match std::fs::read_to_string(POD_NAMESPACE_FILE) {
        Ok(namespace) if !namespace.trim().is_empty() => namespace.trim().to_owned(),
        _ => client.default_namespace().to_owned(),
    }
}

/// A number no other call in this process (and, very likely, no other process) gets.
fn random() -> u64 {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// This replica's identity in the Lease: the Pod name (`HOSTNAME`) and a random suffix, as
/// controller-runtime makes it, so that a restarted Pod does not take its predecessor's Lease
/// for its own.
pub fn identity() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "manager".to_owned());
    format!("{host}_{:016x}", random())
}

/// The three durations of leader election (see the `--leader-election-*` flags).
#[derive(Clone, Copy, Debug)]
pub struct Timings {
    pub lease_duration: Duration,
    pub renew_deadline: Duration,
    pub retry_period: Duration,
}

impl Timings {
    /// The timings the flags ask for.
    pub fn of(options: &Options) -> Self {
        Timings {
            lease_duration: options.leader_election_lease_duration,
            renew_deadline: options.leader_election_renew_deadline,
            retry_period: options.leader_election_retry_period,
        }
    }

    /// A standby's pause between looks: up to a fifth shorter than the retry period, so that
    /// standbys started together spread out, and a released Lease is seen within one period.
    fn standby_pause(&self) -> Duration {
        let fraction = (random() % 1000) as f64 / 1000.0;
        self.retry_period.mul_f64(1.0 - 0.2 * fraction)
    }
}

/// Where this replica stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Standby,
    Leading,
    /// It led, and could not renew the Lease in time: it must stop reconciling now.
    Lost,
}

/// This replica's part in the election, run on a task of its own, which ends when this is
/// dropped: a manager that stops without [`Leadership::release`] stops renewing, as a killed
/// process would.
pub struct Leadership {
    role: watch::Receiver<Role>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Elector>>,
    lease: String,
}

impl Drop for Leadership {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

impl Leadership {
    /// Starts competing for the Lease of `elector`.
    pub fn start(elector: Elector, timings: Timings, metrics: LeaderElectionMetrics) -> Self {
        let lease = elector.describe().to_owned();
        let (role_sender, role) = watch::channel(Role::Standby);
        let (stop, stopped) = oneshot::channel();
        metrics.set_leading(false);
        let task = tokio::spawn(compete(elector, timings, metrics, role_sender, stopped));
        Leadership {
            role,
            stop: Some(stop),
            task: Some(task),
            lease,
        }
    }

    /// Resolves once this replica leads.
    pub async fn acquired(&mut self) -> Result<(), Error> {
        tracing::info!(lease = %self.lease, "waiting for the leader-election lease");
        self.role
            .wait_for(|role| *role == Role::Leading)
            .await
            .map_err(|_| Error::LeaderElection("the election task stopped".to_owned()))?;
        tracing::info!(lease = %self.lease, "acquired the leader-election lease");
        Ok(())
    }

    /// Resolves if this replica stops leading (or the election task ends).
    pub async fn lost(&mut self) {
        let _ = self.role.wait_for(|role| *role == Role::Lost).await;
    }

    /// `namespace/name` of the Lease.
    pub fn lease(&self) -> &str {
        &self.lease
    }

    /// Stops competing and, if this replica holds the Lease, gives it up so that a standby
    /// takes over at its next look instead of after the lease duration. Gives up by `deadline`.
    pub async fn release(mut self, deadline: Instant) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let Some(task) = self.task.take() else {
            return;
        };
        let Ok(mut elector) = task.await else {
            return;
        };
        match timeout_at(deadline, elector.release()).await {
            Ok(Ok(true)) => {
                tracing::info!(lease = %self.lease, "released the leader-election lease")
            }
            Ok(Ok(false)) => {}
            Ok(Err(error)) => {
                tracing::warn!(lease = %self.lease, %error, "could not release the leader-election lease")
            }
            Err(_) => {
                tracing::warn!(lease = %self.lease, "no time left to release the leader-election lease")
            }
        }
    }
}

/// Acquires, then renews, until stopped or until a renewal misses the deadline.
async fn compete(
    mut elector: Elector,
    timings: Timings,
    metrics: LeaderElectionMetrics,
    role: watch::Sender<Role>,
    mut stop: oneshot::Receiver<()>,
) -> Elector {
    let lease = elector.describe().to_owned();
    let mut renewed = loop {
        let started = Instant::now();
        let attempt = tokio::select! {
            biased;
            _ = &mut stop => return elector,
            attempt = timeout_at(started + timings.renew_deadline, elector.try_acquire_or_renew()) => attempt,
        };
        match attempt {
            Ok(Ok(Attempt::Holds)) => break started,
            Ok(Ok(Attempt::HeldBy(holder))) => {
                tracing::debug!(%lease, %holder, "the lease is held")
            }
            Ok(Ok(Attempt::Raced)) => {
                tracing::debug!(%lease, "another replica wrote the lease first")
            }
            Ok(Err(error)) => tracing::warn!(%lease, %error, "cannot read or take the lease"),
            Err(_) => tracing::warn!(%lease, "the lease request timed out"),
        }
        tokio::select! {
            biased;
            _ = &mut stop => return elector,
            () = sleep(timings.standby_pause()) => {}
        }
    };
    metrics.set_leading(true);
    let _ = role.send(Role::Leading);

    let mut slow_renewals = elector.slow_renewals();
    loop {
        tokio::select! {
            biased;
            _ = &mut stop => return elector,
            () = sleep_until(renewed + timings.retry_period) => {}
        }
        // Renewals keep trying until `deadline`, counted from the start of the last renewal
        // that succeeded: the latest moment the Lease may have been written.
        let deadline = renewed + timings.renew_deadline;
        let outcome = loop {
            let started = Instant::now();
            if started >= deadline {
                break Err("no renewal succeeded within the renew deadline".to_owned());
            }
            let attempt = tokio::select! {
                biased;
                _ = &mut stop => return elector,
                attempt = timeout_at(deadline, elector.try_acquire_or_renew()) => attempt,
            };
            match attempt {
                Ok(Ok(Attempt::Holds)) => break Ok(started),
                Ok(Ok(Attempt::HeldBy(holder))) => break Err(format!("{holder} holds it now")),
                // Another writer came between this replica's read and write: as client-go,
                // the next attempt waits a retry period instead of hammering the Lease.
                Ok(Ok(Attempt::Raced)) => {
                    tracing::debug!(%lease, "another writer changed the lease during the renewal")
                }
                Ok(Err(error)) => tracing::warn!(%lease, %error, "cannot renew the lease"),
                Err(_) => {
                    break Err("the renewal did not finish within the renew deadline".to_owned());
                }
            }
            tokio::select! {
                biased;
                _ = &mut stop => return elector,
                () = sleep_until((Instant::now() + timings.retry_period).min(deadline)) => {}
            }
        };
        metrics.add_slow_renewals(elector.slow_renewals() - slow_renewals);
        slow_renewals = elector.slow_renewals();
        match outcome {
            Ok(started) => renewed = started,
            Err(why) => {
                tracing::error!(%lease, %why, "lost the leader-election lease");
                metrics.set_leading(false);
                let _ = role.send(Role::Lost);
                return elector;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Metrics;
    use crate::lease_lock::LeaseLock;
    use webop_testkit::{ApiServer, Verb};

    #[tokio::test(start_paused = true)]
    async fn a_renewal_that_loses_a_race_waits_the_retry_period() {
        let server = ApiServer::new();
        let lock = LeaseLock::new(server.client(), "default", "leader");
        let elector = Elector::new(lock, "a".to_owned(), Duration::from_secs(15));
        let timings = Timings {
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
        };
        let metrics = Metrics::new().leader_election("leader");
        let mut leadership = Leadership::start(elector, timings, metrics);
        leadership.acquired().await.unwrap();
        let acquired = Instant::now();
        // The next renewal's write and its write after a fresh read both conflict.
        server.faults().fail_next(Verb::Update, "leases", 2, 409);
        server.counters().reset();

        sleep_until(acquired + Duration::from_millis(3500)).await;
        assert_eq!(
            server.counters().get(Verb::Update, "leases"),
            2,
            "no third write before a retry period has passed"
        );
        sleep_until(acquired + Duration::from_millis(4500)).await;
        assert_eq!(server.counters().get(Verb::Update, "leases"), 3);
        let lease = LeaseLock::new(server.client(), "default", "leader");
        let (spec, _) = lease.get().await.unwrap().unwrap();
        assert_eq!(spec.holder_identity.as_deref(), Some("a"), "still leading");
        leadership
            .release(Instant::now() + Duration::from_secs(2))
            .await;
    }
}
