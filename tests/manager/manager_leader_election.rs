//! Leader election between replicas of one operator, on the testkit and a paused clock (a
//! simulated minute takes no time): one leader at a time, whatever happens to it. Every
//! replica records when it starts and stops reconciling, and the tests read that timeline.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::Api;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use webop_manager::{Error, Manager, Options};
use webop_testkit::{ApiServer, Link};

const LEASE: &str = "test-lease";

/// When a replica started (`true`) or stopped (`false`) reconciling.
type Timeline = Arc<Mutex<Vec<(usize, bool, Instant)>>>;

/// Records the stop of a replica's controllers when they are dropped, as they are when it
/// loses the Lease.
struct Leading {
    replica: usize,
    timeline: Timeline,
}

impl Leading {
    fn start(replica: usize, timeline: &Timeline) -> Self {
        record(timeline, replica, true);
        Leading {
            replica,
            timeline: timeline.clone(),
        }
    }
}

impl Drop for Leading {
    fn drop(&mut self) {
        record(&self.timeline, self.replica, false);
    }
}

fn record(timeline: &Timeline, replica: usize, leading: bool) {
    let mut events = timeline.lock().unwrap();
    let now = Instant::now();
    events.push((replica, leading, now));
    let active = leaders(&events);
    assert!(active.len() <= 1, "two leaders at once: {events:?}");
}

/// The replicas leading after `events`.
fn leaders(events: &[(usize, bool, Instant)]) -> Vec<usize> {
    let mut active = Vec::new();
    for (replica, leading, _) in events {
        if *leading {
            active.push(*replica);
        } else {
            active.retain(|r| r != replica);
        }
    }
    active
}

struct Replica {
    manager: Manager,
    link: Link,
    run: JoinHandle<Result<(), Error>>,
}

fn options() -> Options {
    Options {
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        ..Options::default()
    }
}

fn start(server: &ApiServer, replica: usize, timeline: &Timeline) -> Replica {
    let (client, link) = server.linked_client();
    let manager = Manager::with_client(client, options(), LEASE);
    let timeline = timeline.clone();
    let run = tokio::spawn(manager.clone().run(move |manager| async move {
        let _leading = Leading::start(replica, &timeline);
        manager.shutdown_signal().await;
    }));
    Replica { manager, link, run }
}

async fn until(what: &str, mut check: impl FnMut() -> bool) {
    let waiting = async {
        while !check() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(120), waiting)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
}

/// The only leader, once there is one.
async fn the_leader(timeline: &Timeline) -> usize {
    until("a leader", || leaders(&timeline.lock().unwrap()).len() == 1).await;
    leaders(&timeline.lock().unwrap())[0]
}

/// When `replica` last started (`true`) or stopped leading.
fn last(timeline: &Timeline, replica: usize, leading: bool) -> Option<Instant> {
    let events = timeline.lock().unwrap();
    events
        .iter()
        .rev()
        .find(|(r, l, _)| *r == replica && *l == leading)
        .map(|(_, _, at)| *at)
}

async fn holder(server: &ApiServer) -> Option<String> {
    let leases: Api<Lease> = Api::namespaced(server.client(), "default");
    let lease = leases.get(LEASE).await.unwrap();
    lease.spec.and_then(|spec| spec.holder_identity)
}

async fn a_cut_off_leader_stops_before_a_standby_takes_over(cut: impl Fn(&Link)) {
    let server = ApiServer::new();
    let timeline = Timeline::default();
    let replicas = [start(&server, 0, &timeline), start(&server, 1, &timeline)];
    let leader = the_leader(&timeline).await;
    let standby = 1 - leader;
    // A few renewals in.
    tokio::time::sleep(Duration::from_secs(7)).await;

    let cut_at = Instant::now();
    cut(&replicas[leader].link);
    until("the standby to lead", || {
        last(&timeline, standby, true).is_some()
    })
    .await;
    let stopped = last(&timeline, leader, false).expect("the old leader stopped");
    let took_over = last(&timeline, standby, true).unwrap();
    assert!(stopped < took_over);
    assert!(
        stopped - cut_at <= Duration::from_secs(10),
        "stopped {:?} after the cut, beyond the renew deadline",
        stopped - cut_at
    );
    let [first, second] = replicas;
    let [old, new] = if leader == 0 {
        [first, second]
    } else {
        [second, first]
    };
    let outcome = old.run.await.unwrap();
    assert!(
        matches!(outcome, Err(Error::LostLease(ref lease)) if lease == "default/test-lease"),
        "{outcome:?}"
    );
    new.manager.shutdown();
    new.run.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_leader_whose_requests_fail_stops_before_a_standby_takes_over() {
    a_cut_off_leader_stops_before_a_standby_takes_over(Link::refuse).await;
}

#[tokio::test(start_paused = true)]
async fn a_leader_whose_requests_hang_stops_before_a_standby_takes_over() {
    a_cut_off_leader_stops_before_a_standby_takes_over(Link::black_hole).await;
}

#[tokio::test(start_paused = true)]
async fn replicas_started_at_once_elect_exactly_one() {
    let server = ApiServer::new();
    let timeline = Timeline::default();
    let replicas: Vec<Replica> = (0..3).map(|r| start(&server, r, &timeline)).collect();
    let leader = the_leader(&timeline).await;
    // A simulated minute of renewals and looks at the Lease: `record` fails the test if a
    // second replica ever starts.
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(leaders(&timeline.lock().unwrap()), [leader]);
    assert_eq!(timeline.lock().unwrap().len(), 1, "nobody else ever led");
    for replica in replicas {
        replica.manager.shutdown();
        replica.run.await.unwrap().unwrap();
    }
}

#[tokio::test(start_paused = true)]
async fn a_killed_leader_is_replaced_once_its_lease_expires() {
    let server = ApiServer::new();
    let timeline = Timeline::default();
    let mut replicas: Vec<Option<Replica>> =
        (0..2).map(|r| Some(start(&server, r, &timeline))).collect();
    let leader = the_leader(&timeline).await;
    tokio::time::sleep(Duration::from_secs(5)).await;

    // Killed: no release, no more renewals.
    let killed = replicas[leader].take().unwrap();
    killed.run.abort();
    let killed_at = Instant::now();
    let standby = 1 - leader;
    until("the standby to lead", || {
        last(&timeline, standby, true).is_some()
    })
    .await;
    let waited = last(&timeline, standby, true).unwrap() - killed_at;
    // The standby waits until the Lease has gone unrenewed for the lease duration (15 s) on
    // its own clock, counted from its first look after the last renewal.
    assert!(
        (Duration::from_secs(13)..=Duration::from_secs(19)).contains(&waited),
        "took over {waited:?} after the kill"
    );
    let survivor = replicas[standby].take().unwrap();
    survivor.manager.shutdown();
    survivor.run.await.unwrap().unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_released_lease_is_taken_within_the_retry_period() {
    let server = ApiServer::new();
    let timeline = Timeline::default();
    let mut replicas: Vec<Option<Replica>> =
        (0..2).map(|r| Some(start(&server, r, &timeline))).collect();
    let leader = the_leader(&timeline).await;
    tokio::time::sleep(Duration::from_secs(5)).await;

    let stepping_down = replicas[leader].take().unwrap();
    stepping_down.manager.shutdown();
    stepping_down.run.await.unwrap().unwrap();
    let released = last(&timeline, leader, false).unwrap();
    assert_eq!(holder(&server).await, None, "released");

    let standby = 1 - leader;
    until("the standby to lead", || {
        last(&timeline, standby, true).is_some()
    })
    .await;
    let waited = last(&timeline, standby, true).unwrap() - released;
    assert!(waited <= Duration::from_secs(2), "took {waited:?}");
    let survivor = replicas[standby].take().unwrap();
    survivor.manager.shutdown();
    survivor.run.await.unwrap().unwrap();
    assert_eq!(holder(&server).await, None);
}

// Real time and a real HTTP connection: the manager's clients are built from a kubeconfig-like
// `kube::Config`, as in a cluster.
#[tokio::test]
async fn leader_election_is_not_held_up_by_the_reconcile_rate_limit() {
    let server = ApiServer::new();
    let address = server
        .serve_http("127.0.0.1:0".parse().unwrap())
        .await
        .unwrap();
    let config = kube::Config::new(format!("http://{address}").parse().unwrap());
    let options = Options {
        // One request, then one every 1000 s.
        kube_api_qps: 0.001,
        kube_api_burst: 1,
        leader_election_lease_duration: Duration::from_secs(3),
        leader_election_renew_deadline: Duration::from_secs(2),
        leader_election_retry_period: Duration::from_millis(500),
        ..options()
    };
    let manager = Manager::from_config(config, options, LEASE).unwrap();
    let configmaps: Api<k8s_openapi::api::core::v1::ConfigMap> =
        Api::namespaced(manager.client(), "default");
    configmaps.list(&Default::default()).await.unwrap();
    let starved = tokio::spawn(async move { configmaps.list(&Default::default()).await });

    let timeline = Timeline::default();
    let run = tokio::spawn(manager.clone().run({
        let timeline = timeline.clone();
        move |manager| async move {
            let _leading = Leading::start(0, &timeline);
            manager.shutdown_signal().await;
        }
    }));
    the_leader(&timeline).await;
    let renewals = || server.counters().get(webop_testkit::Verb::Update, "leases");
    let before = renewals();
    until("renewals", || renewals() >= before + 2).await;
    assert!(
        !starved.is_finished(),
        "the reconcile client is still out of tokens"
    );
    manager.shutdown();
    run.await.unwrap().unwrap();
    starved.abort();
}
