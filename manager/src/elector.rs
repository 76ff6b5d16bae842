//! One replica's view of the leader-election Lease, and the single step client-go calls
//! `tryAcquireOrRenew`: take the Lease if it is free or expired, renew it if it is ours.
//!
//! Expiry is judged on this replica's own monotonic clock, never on the times written in the
//! Lease (other nodes' clocks may be off): a Lease held by another replica expires `duration`
//! after this replica last saw it change.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::LeaseSpec;
use kube::api::ObjectMeta;
use tokio::time::Instant;

use super::lease_lock::{LeaseLock, Written, now};

/// What one attempt found.
#[derive(Debug, PartialEq, Eq)]
pub enum Attempt {
    /// This replica holds the Lease (it took or renewed it).
    Holds,
    /// Another replica holds the Lease and it has not expired.
    HeldBy(String),
    /// Another replica wrote the Lease between this replica's read and write: try again.
    Raced,
}

/// The Lease as this replica last read or wrote it.
#[derive(Debug, Clone)]
struct Observed {
    spec: LeaseSpec,
    /// Its metadata: the resourceVersion the next write names, and what it writes back.
    metadata: ObjectMeta,
    /// When this replica saw `spec` first: the start of its validity.
    since: Instant,
}

/// `duration` as a Lease records it: whole seconds (at least one), as client-go writes it.
pub fn lease_duration_seconds(duration: Duration) -> i32 {
    i32::try_from(duration.as_secs().max(1)).unwrap_or(i32::MAX)
}

/// One replica competing for one Lease.
#[derive(Debug)]
pub struct Elector {
    lock: LeaseLock,
    identity: String,
    lease_duration: Duration,
    observed: Option<Observed>,
    /// Renewals that had to read the Lease again because the cached copy was stale
    /// (client-go's "slow path").
    slow_renewals: u64,
}

impl Elector {
    /// `identity` competing for `lock`, asking to hold it `lease_duration` per renewal.
    pub fn new(lock: LeaseLock, identity: String, lease_duration: Duration) -> Self {
        Elector {
            lock,
            identity,
            lease_duration,
            observed: None,
            slow_renewals: 0,
        }
    }

    /// The Lease, `namespace/name`.
    pub fn describe(&self) -> &str {
        self.lock.describe()
    }

    /// This replica's identity in the Lease.
    #[cfg(test)]
    fn identity(&self) -> &str {
        &self.identity
    }

    /// How many renewals took the slow path so far.
    pub fn slow_renewals(&self) -> u64 {
        self.slow_renewals
    }

    fn holds_observed(&self) -> bool {
        self.observed
            .as_ref()
            .is_some_and(|o| o.spec.holder_identity.as_deref() == Some(&self.identity))
    }

    fn observe(&mut self, spec: LeaseSpec, metadata: ObjectMeta) {
        let changed = self.observed.as_ref().is_none_or(|o| o.spec != spec);
        let since = match &self.observed {
            Some(observed) if !changed => observed.since,
            _ => Instant::now(),
        };
        self.observed = Some(Observed {
            spec,
            metadata,
            since,
        });
    }

    /// Takes the Lease if it is free, expired or already ours, and renews it if it is ours.
    pub async fn try_acquire_or_renew(&mut self) -> Result<Attempt, kube::Error> {
        // The fast path of a leader: write the renewal over the copy it last wrote.
        if let Some(observed) = self.observed.clone().filter(|_| self.holds_observed()) {
            let renewed = self.renewal(&observed.spec);
            match self.lock.update(&renewed, &observed.metadata).await? {
                Written::Stored(metadata) => {
                    self.observe(renewed, *metadata);
                    return Ok(Attempt::Holds);
                }
                Written::Lost => self.slow_renewals += 1,
            }
        }

        let Some((current, read)) = self.lock.get().await? else {
            let spec = self.takeover(&LeaseSpec::default());
            return Ok(match self.lock.create(&spec).await? {
                Written::Stored(metadata) => {
                    self.observe(spec, *metadata);
                    Attempt::Holds
                }
                Written::Lost => Attempt::Raced,
            });
        };
        self.observe(current.clone(), read.clone());
        let holder = current.holder_identity.clone().unwrap_or_default();
        let ours = holder == self.identity;
        if !holder.is_empty() && !ours && !self.observed_expired(&current) {
            return Ok(Attempt::HeldBy(holder));
        }
        let wanted = if ours {
            self.renewal(&current)
        } else {
            self.takeover(&current)
        };
        Ok(match self.lock.update(&wanted, &read).await? {
            Written::Stored(metadata) => {
                self.observe(wanted, *metadata);
                Attempt::Holds
            }
            Written::Lost => Attempt::Raced,
        })
    }

    /// Gives the Lease up, if this replica holds it: no holder, and a one-second duration, as
    /// client-go writes it, so that a standby takes it at its next look instead of after the
    /// lease duration. Returns whether it was released.
    ///
    /// A conflict means the Lease changed since this replica last saw it, most often by its
    /// own renewal, cut off by the shutdown after the server stored it: the Lease is read again
    /// and released if it is still this replica's.
    pub async fn release(&mut self) -> Result<bool, kube::Error> {
        loop {
            let Some(observed) = self.observed.clone().filter(|_| self.holds_observed()) else {
                return Ok(false);
            };
            let time = now();
            let released = LeaseSpec {
                holder_identity: None,
                lease_duration_seconds: Some(1),
                acquire_time: Some(time.clone()),
                renew_time: Some(time),
                lease_transitions: observed.spec.lease_transitions,
                ..LeaseSpec::default()
            };
            match self.lock.update(&released, &observed.metadata).await? {
                Written::Stored(metadata) => {
                    self.observe(released, *metadata);
                    return Ok(true);
                }
                Written::Lost => match self.lock.get().await? {
                    Some((current, read)) => self.observe(current, read),
                    None => return Ok(false),
                },
            }
        }
    }

    /// Whether the Lease, last seen as `spec`, has gone unchanged for longer than its duration.
    fn observed_expired(&self, spec: &LeaseSpec) -> bool {
        let seconds = spec.lease_duration_seconds.unwrap_or(0).max(0);
        let duration = Duration::from_secs(u64::try_from(seconds).unwrap_or(0));
        self.observed
            .as_ref()
            .is_none_or(|o| o.since + duration <= Instant::now())
    }

    fn duration_seconds(&self) -> i32 {
        lease_duration_seconds(self.lease_duration)
    }

    /// `current`, renewed by its holder (this replica).
    fn renewal(&self, current: &LeaseSpec) -> LeaseSpec {
        LeaseSpec {
            renew_time: Some(now()),
            lease_duration_seconds: Some(self.duration_seconds()),
            ..current.clone()
        }
    }

    /// `current`, taken over by this replica: one more transition.
    fn takeover(&self, current: &LeaseSpec) -> LeaseSpec {
        let time = now();
        LeaseSpec {
            holder_identity: Some(self.identity.clone()),
            lease_duration_seconds: Some(self.duration_seconds()),
            acquire_time: Some(time.clone()),
            renew_time: Some(time),
            lease_transitions: Some(current.lease_transitions.map_or(0, |t| t.saturating_add(1))),
            ..LeaseSpec::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use webop_testkit::{ApiServer, Matcher, Verb};

    fn lock(server: &ApiServer) -> LeaseLock {
        LeaseLock::new(server.client(), "default", "leader")
    }

    fn elector(server: &ApiServer, identity: &str) -> Elector {
        Elector::new(lock(server), identity.to_owned(), Duration::from_secs(15))
    }

    fn held_by(spec: &LeaseSpec, holder: &str) -> LeaseSpec {
        LeaseSpec {
            holder_identity: Some(holder.to_owned()),
            ..spec.clone()
        }
    }

    #[tokio::test]
    async fn of_two_writes_from_the_same_read_exactly_one_is_stored() {
        let server = ApiServer::new();
        let (a, b) = (lock(&server), lock(&server));
        let free = LeaseSpec::default();
        let created = [
            a.create(&held_by(&free, "a")).await,
            b.create(&held_by(&free, "b")).await,
        ];
        assert!(matches!(created[0], Ok(Written::Stored(_))), "{created:?}");
        assert!(matches!(created[1], Ok(Written::Lost)), "{created:?}");

        let (spec, read) = a.get().await.unwrap().unwrap();
        // Each write changes the Lease (an unchanged one would keep its resourceVersion).
        let updated = [
            a.update(&held_by(&spec, "c"), &read).await,
            b.update(&held_by(&spec, "b"), &read).await,
        ];
        assert!(matches!(updated[0], Ok(Written::Stored(_))), "{updated:?}");
        assert!(matches!(updated[1], Ok(Written::Lost)), "{updated:?}");
        let (spec, _) = b.get().await.unwrap().unwrap();
        assert_eq!(spec.holder_identity.as_deref(), Some("c"));
    }

    /// Exactly one of `attempts` holds the Lease.
    fn one_holder(attempts: &[Attempt]) {
        let holders = attempts.iter().filter(|a| **a == Attempt::Holds).count();
        assert_eq!(holders, 1, "{attempts:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn replicas_starting_at_once_elect_one_and_take_over_only_after_expiry() {
        let server = ApiServer::new();
        let (mut a, mut b) = (elector(&server, "a"), elector(&server, "b"));
        let (first, second) = tokio::join!(a.try_acquire_or_renew(), b.try_acquire_or_renew());
        let outcomes = [first.unwrap(), second.unwrap()];
        one_holder(&outcomes);
        let (mut leader, mut standby) = if outcomes[0] == Attempt::Holds {
            (a, b)
        } else {
            (b, a)
        };
        let leader_name = leader.identity().to_owned();
        let mut third = elector(&server, "c");
        for contender in [&mut standby, &mut third] {
            assert_eq!(
                contender.try_acquire_or_renew().await.unwrap(),
                Attempt::HeldBy(leader_name.clone())
            );
        }

        // The leader stops renewing. Before the lease duration has passed on the standbys'
        // clocks, the Lease is still the leader's.
        tokio::time::advance(Duration::from_secs(14)).await;
        assert!(matches!(
            standby.try_acquire_or_renew().await.unwrap(),
            Attempt::HeldBy(_)
        ));
        // Past it, both standbys race for the expired Lease (their reads are held back so
        // that both read the same copy): one takes it.
        tokio::time::advance(Duration::from_secs(2)).await;
        server.faults().delay(
            Matcher::new(Verb::Get, Some("leases")),
            Duration::from_secs(1),
        );
        let (b_turn, c_turn) =
            tokio::join!(standby.try_acquire_or_renew(), third.try_acquire_or_renew());
        server.faults().clear();
        one_holder(&[b_turn.unwrap(), c_turn.unwrap()]);

        // The old leader's renewal over its stale copy loses, and it sees the new holder.
        assert!(matches!(
            leader.try_acquire_or_renew().await.unwrap(),
            Attempt::HeldBy(holder) if holder != leader_name
        ));
        assert_eq!(leader.slow_renewals(), 1);
        let (spec, _) = lock(&server).get().await.unwrap().unwrap();
        assert_eq!(spec.lease_transitions, Some(1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_leader_renews_with_one_write_and_a_release_frees_the_lease_at_once() {
        let server = ApiServer::new();
        let mut leader = elector(&server, "a");
        assert_eq!(leader.try_acquire_or_renew().await.unwrap(), Attempt::Holds);
        server.counters().reset();
        assert_eq!(leader.try_acquire_or_renew().await.unwrap(), Attempt::Holds);
        assert_eq!(server.counters().get(Verb::Update, "leases"), 1);
        assert_eq!(
            server.counters().get(Verb::Get, "leases"),
            0,
            "the fast path"
        );

        let mut standby = elector(&server, "b");
        assert!(matches!(
            standby.try_acquire_or_renew().await.unwrap(),
            Attempt::HeldBy(_)
        ));
        assert!(leader.release().await.unwrap());
        assert!(!leader.release().await.unwrap(), "released once");
        assert_eq!(
            standby.try_acquire_or_renew().await.unwrap(),
            Attempt::Holds
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_release_after_its_own_unseen_renewal_reads_again_and_releases() {
        let server = ApiServer::new();
        let mut leader = elector(&server, "a");
        assert_eq!(leader.try_acquire_or_renew().await.unwrap(), Attempt::Holds);
        // A renewal the server stored but whose answer the shutdown cut off: the Lease moved
        // on from the copy the leader holds, still in its name.
        let (spec, read) = lock(&server).get().await.unwrap().unwrap();
        let renewed = LeaseSpec {
            renew_time: Some(now()),
            ..spec
        };
        let stored = lock(&server).update(&renewed, &read).await.unwrap();
        assert!(matches!(stored, Written::Stored(_)), "{stored:?}");

        assert!(leader.release().await.unwrap());
        let (spec, _) = lock(&server).get().await.unwrap().unwrap();
        assert_eq!(spec.holder_identity, None);
        assert_eq!(spec.lease_duration_seconds, Some(1));
    }

    #[tokio::test(start_paused = true)]
    async fn every_write_keeps_the_labels_annotations_and_owners_it_read() {
        use k8s_openapi::api::coordination::v1::Lease;
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
        let server = ApiServer::new();
        let metadata = ObjectMeta {
            name: Some("leader".to_owned()),
            labels: Some([("team".to_owned(), "a".to_owned())].into()),
            annotations: Some([("note".to_owned(), "kept".to_owned())].into()),
            owner_references: Some(vec![OwnerReference {
                api_version: "v1".to_owned(),
                kind: "ConfigMap".to_owned(),
                name: "owner".to_owned(),
                uid: "0b6d2f5e-0000-4000-8000-000000000001".to_owned(),
                ..OwnerReference::default()
            }]),
            ..ObjectMeta::default()
        };
        let leases: kube::Api<Lease> = kube::Api::namespaced(server.client(), "default");
        let lease = Lease {
            metadata: metadata.clone(),
            spec: Some(LeaseSpec::default()),
        };
        leases.create(&Default::default(), &lease).await.unwrap();

        let mut leader = elector(&server, "a");
        assert_eq!(leader.try_acquire_or_renew().await.unwrap(), Attempt::Holds);
        assert_eq!(leader.try_acquire_or_renew().await.unwrap(), Attempt::Holds);
        assert!(leader.release().await.unwrap());
        let stored = leases.get("leader").await.unwrap().metadata;
        assert_eq!(stored.labels, metadata.labels);
        assert_eq!(stored.annotations, metadata.annotations);
        assert_eq!(stored.owner_references, metadata.owner_references);
    }
}
