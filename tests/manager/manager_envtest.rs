//! `webop_manager` against a real kube-apiserver (`KUBEBUILDER_ASSETS`; the testkit otherwise):
//! Lease semantics of leader election, in real time with short timings, and the metrics
//! server's TokenReviews and SubjectAccessReviews.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::Api;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use webop_envtest::Environment;
use webop_manager::{Error, Manager, Options};

use crate::manager_support;

/// Which replicas lead now, and whether two ever led at once.
#[derive(Default)]
struct Leaders {
    now: Vec<usize>,
    started: Vec<(usize, Instant)>,
    overlapped: bool,
}

type Shared = Arc<Mutex<Leaders>>;

struct Leading(usize, Shared);

impl Leading {
    fn start(replica: usize, leaders: &Shared) -> Self {
        let mut state = leaders.lock().unwrap();
        state.now.push(replica);
        state.overlapped |= state.now.len() > 1;
        state.started.push((replica, Instant::now()));
        Leading(replica, leaders.clone())
    }
}

impl Drop for Leading {
    fn drop(&mut self) {
        self.1.lock().unwrap().now.retain(|r| *r != self.0);
    }
}

fn replica(
    client: &kube::Client,
    index: usize,
    leaders: &Shared,
) -> (Manager, JoinHandle<Result<(), Error>>) {
    let options = Options {
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        leader_election_lease_duration: Duration::from_secs(4),
        leader_election_renew_deadline: Duration::from_secs(3),
        leader_election_retry_period: Duration::from_millis(500),
        ..Options::default()
    };
    let manager = Manager::with_client(client.clone(), options, "envtest-lease");
    let leaders = leaders.clone();
    let run = tokio::spawn(manager.clone().run(move |manager| async move {
        let _leading = Leading::start(index, &leaders);
        manager.shutdown_signal().await;
    }));
    (manager, run)
}

async fn until(what: &str, mut check: impl FnMut() -> bool) {
    let waiting = async {
        while !check() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), waiting)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
}

#[tokio::test]
async fn replicas_on_a_real_api_server_hand_the_lease_over_without_overlap() {
    let env = Environment::start()
        .await
        .expect("the test API server starts");
    eprintln!("leader election on {}", env.describe());
    // The replicas may do only what the scaffolded leader-election Role grants.
    let role = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/webapp-operator/config/rbac/leader_election_role.yaml"
    );
    let client = env
        .client_with_rbac("leader-election", &[std::path::Path::new(role)])
        .await
        .expect("the leader-election Role installs");
    let leaders = Shared::default();
    let mut replicas: Vec<_> = (0..3)
        .map(|i| Some(replica(&client, i, &leaders)))
        .collect();
    until("a leader", || leaders.lock().unwrap().now.len() == 1).await;
    let first = leaders.lock().unwrap().now[0];

    // Killed: no release; another replica takes over once the Lease expires (4 s).
    let (_, killed) = replicas[first].take().unwrap();
    killed.abort();
    let killed_at = Instant::now();
    until("a second leader", || {
        leaders.lock().unwrap().started.len() == 2
    })
    .await;
    let (second, took_over) = leaders.lock().unwrap().started[1];
    assert!(
        took_over - killed_at >= Duration::from_secs(2),
        "{:?}",
        took_over - killed_at
    );

    // Shut down: it releases the Lease, and the last replica takes it at its next look.
    let (manager, run) = replicas[second].take().unwrap();
    manager.shutdown();
    run.await.unwrap().unwrap();
    let released_at = Instant::now();
    until("a third leader", || {
        leaders.lock().unwrap().started.len() == 3
    })
    .await;
    let (_, third_started) = leaders.lock().unwrap().started[2];
    assert!(
        third_started - released_at < Duration::from_secs(2),
        "{:?}",
        third_started - released_at
    );

    let leases: Api<Lease> = Api::namespaced(env.client(), "default");
    let spec = leases.get("envtest-lease").await.unwrap().spec.unwrap();
    assert_eq!(spec.lease_transitions, Some(2));
    for (manager, run) in replicas.into_iter().flatten() {
        manager.shutdown();
        run.await.unwrap().unwrap();
    }
    assert!(
        !leaders.lock().unwrap().overlapped,
        "two replicas led at once"
    );
}

#[tokio::test]
async fn a_real_api_server_decides_who_reads_metrics() {
    use k8s_openapi::api::core::v1::ServiceAccount;
    use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
    use kube::api::PostParams;
    use serde_json::json;

    let env = Environment::start()
        .await
        .expect("the test API server starts");
    if !env.is_real() {
        eprintln!("skipped: TokenReviews and SubjectAccessReviews need a real API server");
        return;
    }
    let client = env.client();
    let create = PostParams::default();
    let accounts: Api<ServiceAccount> = Api::namespaced(client.clone(), "default");
    for name in ["prometheus", "outsider"] {
        let account = serde_json::from_value(json!({"metadata": {"name": name}})).unwrap();
        accounts.create(&create, &account).await.unwrap();
    }
    // config/rbac/metrics_reader_role.yaml, bound to Prometheus' service account.
    let reader: ClusterRole = serde_json::from_value(json!({
        "metadata": {"name": "metrics-reader"},
        "rules": [{"nonResourceURLs": ["/metrics"], "verbs": ["get"]}],
    }))
    .unwrap();
    Api::<ClusterRole>::all(client.clone())
        .create(&create, &reader)
        .await
        .unwrap();
    let binding: ClusterRoleBinding = serde_json::from_value(json!({
        "metadata": {"name": "prometheus-metrics-reader"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                    "name": "metrics-reader"},
        "subjects": [{"kind": "ServiceAccount", "name": "prometheus", "namespace": "default"}],
    }))
    .unwrap();
    Api::<ClusterRoleBinding>::all(client.clone())
        .create(&create, &binding)
        .await
        .unwrap();
    let token = async |name: &str| -> String {
        let request = serde_json::from_value(json!({"spec": {"audiences": []}})).unwrap();
        let issued = accounts
            .create_token_request(name, &create, &request)
            .await
            .unwrap();
        let issued = serde_json::to_value(issued).unwrap();
        issued["status"]["token"].as_str().unwrap().to_owned()
    };
    let (reader_token, outsider_token) = (token("prometheus").await, token("outsider").await);

    let options = Options {
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        ..Options::default()
    };
    let manager = Manager::with_client(client, options, "test");
    let servers = manager.serve().await.unwrap();
    let (address, tls) = (servers.metrics.unwrap(), manager_support::connector(None));
    let scrape = async |token: Option<&str>| manager_support::scrape(address, &tls, token).await;
    assert_eq!(scrape(None).await.0, 401);
    assert_eq!(scrape(Some("not-a-token")).await.0, 401);
    let (code, body) = scrape(Some(&outsider_token)).await;
    assert_eq!(code, 403, "{body}");
    assert_eq!(
        body,
        "Authorization denied for user system:serviceaccount:default:outsider\n"
    );
    let (code, body) = scrape(Some(&reader_token)).await;
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("process_start_time_seconds"), "{body}");
    manager.shutdown();
    servers.stopped().await;
}

/// The recorder's series patch is one the API server's Event validation accepts (count, last
/// observed time, nothing else changed).
#[tokio::test]
async fn repeated_events_count_on_one_event_on_the_api_server() {
    use k8s_openapi::api::core::v1::ObjectReference;
    use k8s_openapi::api::events::v1::Event as K8sEvent;
    use kube::api::ListParams;
    use kube::runtime::events::{Event, EventType, Reporter};
    use webop_manager::EventRecorder;

    let env = Environment::start()
        .await
        .expect("the test API server starts");
    let client = env.client();
    let reporter = Reporter {
        controller: "envtest-events".to_owned(),
        instance: None,
    };
    let recorder = EventRecorder::new(client.clone(), reporter);
    let regarding = ObjectReference {
        api_version: Some("v1".to_owned()),
        kind: Some("ConfigMap".to_owned()),
        namespace: Some("default".to_owned()),
        name: Some("recorded".to_owned()),
        ..ObjectReference::default()
    };
    for note in ["first", "second", "third"] {
        let event = Event {
            type_: EventType::Warning,
            reason: "Failed".to_owned(),
            note: Some(note.to_owned()),
            action: "Reconcile".to_owned(),
            secondary: None,
        };
        recorder.publish(&event, &regarding).await.unwrap();
    }

    let events: Api<K8sEvent> = Api::namespaced(client, "default");
    let recorded: Vec<_> = (events.list(&ListParams::default()).await.unwrap().items)
        .into_iter()
        .filter(|event| event.reporting_controller.as_deref() == Some("envtest-events"))
        .collect();
    let [event] = recorded.try_into().unwrap();
    assert_eq!(event.note.as_deref(), Some("first"));
    assert_eq!(event.series.map(|series| series.count), Some(3));
}
