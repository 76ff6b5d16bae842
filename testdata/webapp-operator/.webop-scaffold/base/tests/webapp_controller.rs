//! The WebApp controller's tests. One test body runs on two API servers:
//!
//! - a real kube-apiserver when `KUBEBUILDER_ASSETS` names its binaries (`make setup-envtest`);
//!   with kube-controller-manager and kwok there as well, children are garbage-collected and
//!   the Deployment's pods run on a fake node;
//! - otherwise webop's in-memory API server, offline and on a paused clock (a simulated minute
//!   takes no time). It runs no workload controllers: the tests play the Deployment controller.
//!
//! The CRD comes from `config/crd/bases`, as deployed (`make test` regenerates it first), and on
//! a real API server the controller may do only what `config/rbac/role.yaml` grants.

use std::path::Path;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::wait::{Condition, await_condition, conditions};
use kube::{Api, Client, ResourceExt};
use serde_json::json;
use webop::envtest::{Binary, Environment};
use webop::manager::{Manager, Options};
use webop::testkit::Verb;

use webapp_operator::controller::webapp_controller;
use webapp_operator_api::v1 as appv1;

/// How long a wait may take before the test fails (simulated time on the testkit).
const PATIENCE: Duration = Duration::from_secs(60);

/// Who makes a Deployment's pods ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pods {
    /// Nobody: the in-memory API server runs no controllers, so the test writes the status.
    PlayedByTheTest,
    /// kube-controller-manager and kwok, on a real API server.
    Run,
    /// Nobody, on a real API server without kwok: Deployments never have available replicas.
    NeverReady,
}

/// An API server with the WebApp CRD, and the controller running against it.
struct Cluster {
    env: Environment,
    client: Client,
    manager: Manager,
    controller: tokio::task::JoinHandle<()>,
    pods: Pods,
}

impl Cluster {
    async fn start() -> Self {
        let env = Environment::builder()
            .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
            .controller_manager(true)
            .kwok(true)
            .only_available_components()
            .start()
            .await
            .expect("the test API server starts");
        let pods = if !env.is_real() {
            tokio::time::pause();
            Pods::PlayedByTheTest
        } else if env.runs(Binary::Kwok) && env.runs(Binary::ControllerManager) {
            Pods::Run
        } else {
            Pods::NeverReady
        };
        let client = env.client();
        let role = concat!(env!("CARGO_MANIFEST_DIR"), "/config/rbac/role.yaml");
        let controller_client = env
            .client_with_rbac(webapp_controller::FIELD_MANAGER, &[Path::new(role)])
            .await
            .expect("the controller's roles install");
        let manager = Manager::with_client(controller_client, Options::default(), "test");
        let controller = tokio::spawn(webapp_controller::run(manager.clone()));
        Cluster {
            env,
            client,
            manager,
            controller,
            pods,
        }
    }

    fn api<K>(&self) -> Api<K>
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
    {
        Api::namespaced(self.client.clone(), "default")
    }

    async fn create(&self, name: &str, image: &str, replicas: i32, port: i32) -> appv1::WebApp {
        let spec = appv1::WebAppSpec {
            image: image.to_owned(),
            replicas,
            port,
            resources: None,
        };
        self.api::<appv1::WebApp>()
            .create(&PostParams::default(), &appv1::WebApp::new(name, spec))
            .await
            .unwrap()
    }

    /// Waits until the object `name` of `K` satisfies `condition`, and returns it.
    async fn until<K>(&self, name: &str, condition: impl Condition<K>) -> K
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>
            + Clone
            + std::fmt::Debug
            + serde::de::DeserializeOwned
            + Send
            + 'static,
    {
        let waiting = await_condition(self.api::<K>(), name, condition);
        let object = tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("{} {name}: condition not met in time", K::kind(&())))
            .unwrap();
        object.unwrap_or_else(|| panic!("{} {name} was deleted", K::kind(&())))
    }

    /// Waits until the object `name` of `K` with `uid` is gone.
    async fn deleted<K>(&self, name: &str, uid: &str)
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>
            + Clone
            + std::fmt::Debug
            + serde::de::DeserializeOwned
            + Send
            + 'static,
    {
        let waiting = await_condition(self.api::<K>(), name, conditions::is_deleted(uid));
        tokio::time::timeout(PATIENCE, waiting)
            .await
            .unwrap_or_else(|_| panic!("{} {name} still exists", K::kind(&())))
            .unwrap();
    }

    /// On the in-memory API server, plays the Deployment controller: every replica of `name`
    /// becomes available.
    async fn deployment_becomes_ready(&self, name: &str) {
        assert_eq!(
            self.pods,
            Pods::PlayedByTheTest,
            "only the testkit needs this"
        );
        let deployment: Deployment = self.until(name, exists()).await;
        let replicas = deployment.spec.replicas.unwrap_or(1);
        let status = json!({"status": {
            "observedGeneration": deployment.metadata.generation,
            "replicas": replicas, "updatedReplicas": replicas,
            "readyReplicas": replicas, "availableReplicas": replicas,
            "conditions": [{"type": "Available", "status": "True"}],
        }});
        self.api::<Deployment>()
            .patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap();
    }

    /// Waits until the WebApp `name` shows what this cluster makes of its current generation:
    /// Running with every replica available where pods run (played by the test on the
    /// testkit), Pending where they never become ready.
    async fn settled(&self, name: &str) -> appv1::WebApp {
        let expected = match self.pods {
            Pods::PlayedByTheTest => {
                self.deployment_becomes_ready(&format!("{name}-deploy"))
                    .await;
                appv1::WebAppPhase::Running
            }
            Pods::Run => appv1::WebAppPhase::Running,
            Pods::NeverReady => appv1::WebAppPhase::Pending,
        };
        self.until(name, observed(expected)).await
    }

    /// Creates `name` and waits until it has settled.
    async fn running(&self, name: &str) -> appv1::WebApp {
        self.create(name, "nginx:1.25", 2, 8080).await;
        self.settled(name).await
    }

    async fn stop(self) {
        self.manager.shutdown();
        tokio::time::timeout(PATIENCE, self.controller)
            .await
            .expect("the controller stops on shutdown")
            .unwrap();
    }
}

fn exists<K>() -> impl Condition<K> {
    |object: Option<&K>| object.is_some()
}

fn phase(expected: appv1::WebAppPhase) -> impl Condition<appv1::WebApp> {
    move |webapp: Option<&appv1::WebApp>| {
        webapp.and_then(|w| w.status.as_ref()).and_then(|s| s.phase) == Some(expected)
    }
}

/// The WebApp is in phase `expected`, and its status describes its current generation.
fn observed(expected: appv1::WebAppPhase) -> impl Condition<appv1::WebApp> {
    move |webapp: Option<&appv1::WebApp>| {
        webapp.is_some_and(|w| {
            let Some(status) = &w.status else {
                return false;
            };
            let available = status.conditions.iter().find(|c| c.type_ == "Available");
            status.phase == Some(expected)
                && available.and_then(|c| c.observed_generation) == w.metadata.generation
        })
    }
}

fn container(deployment: &Deployment) -> &k8s_openapi::api::core::v1::Container {
    &deployment.spec.template.spec.as_ref().unwrap().containers[0]
}

/// Whether the controller's field manager owns fields of `object` through server-side apply.
fn applied_by_the_controller(object: &impl ResourceExt) -> bool {
    object.managed_fields().iter().any(|entry| {
        entry.manager.as_deref() == Some(webapp_controller::FIELD_MANAGER)
            && entry.operation.as_deref() == Some("Apply")
    })
}

#[tokio::test]
async fn a_webapp_gets_a_deployment_a_service_and_a_status() {
    let cluster = Cluster::start().await;
    let webapp = cluster.create("demo", "nginx:1.25", 2, 8080).await;

    let deployment: Deployment = cluster.until("demo-deploy", exists()).await;
    assert!(applied_by_the_controller(&deployment));
    let owner = &deployment.owner_references()[0];
    assert_eq!(
        (owner.name.as_str(), owner.controller),
        ("demo", Some(true))
    );
    assert_eq!(owner.uid, webapp.uid().unwrap());
    let labels = webapp_controller::labels(&webapp);
    assert_eq!(deployment.labels(), &labels);
    let spec = &deployment.spec;
    assert_eq!(spec.replicas, Some(2));
    assert_eq!(spec.selector.match_labels.as_ref(), Some(&labels));
    assert_eq!(container(&deployment).image.as_deref(), Some("nginx:1.25"));
    assert_eq!(
        container(&deployment).ports.as_ref().unwrap()[0].container_port,
        8080
    );

    // Pod Security "restricted", and requests the scheduler can place.
    let security = container(&deployment).security_context.clone().unwrap();
    assert_eq!(security.run_as_non_root, Some(true));
    assert_eq!(security.allow_privilege_escalation, Some(false));
    let dropped = security
        .capabilities
        .and_then(|c| c.drop)
        .unwrap_or_default();
    assert_eq!(dropped, ["ALL"]);
    let pod = deployment.spec.template.spec.as_ref().unwrap();
    let seccomp = pod
        .security_context
        .as_ref()
        .unwrap()
        .seccomp_profile
        .as_ref();
    assert_eq!(seccomp.map(|p| p.type_.as_str()), Some("RuntimeDefault"));
    let requests = container(&deployment)
        .resources
        .as_ref()
        .unwrap()
        .requests
        .as_ref()
        .unwrap();
    assert!(
        requests.contains_key("cpu") && requests.contains_key("memory"),
        "{requests:?}"
    );

    let service: Service = cluster.until("demo-svc", exists()).await;
    assert!(applied_by_the_controller(&service));
    let spec = service.spec.unwrap();
    assert_eq!(spec.selector.as_ref(), Some(&labels));
    let port = &spec.ports.unwrap()[0];
    assert_eq!(port.port, 8080);
    assert_eq!(port.target_port, Some(IntOrString::Int(8080)));

    if cluster.pods == Pods::PlayedByTheTest {
        let pending = cluster
            .until("demo", phase(appv1::WebAppPhase::Pending))
            .await;
        assert_eq!(pending.status.unwrap().available_replicas, 0);
    }
    let status = cluster.settled("demo").await.status.unwrap();
    assert!(status.last_update_time.is_some());
    let condition = |type_: &str| {
        status
            .conditions
            .iter()
            .find(|c| c.type_ == type_)
            .unwrap_or_else(|| panic!("a {type_} condition: {status:?}"))
    };
    let available = condition("Available");
    assert_eq!(available.observed_generation, Some(1));
    assert_eq!(condition("Degraded").status, "False");
    if cluster.pods == Pods::NeverReady {
        assert_eq!(status.available_replicas, 0);
        assert_eq!(available.status, "False");
    } else {
        assert_eq!(status.available_replicas, 2);
        assert_eq!(available.status, "True");
    }

    // Creating the children records no event: the status says it.
    let notes = event_notes(&cluster, "Normal").await;
    assert!(notes.is_empty(), "no event for a creation: {notes:?}");
    cluster.stop().await;
}

/// The notes of the events of `type_` about the WebApps.
async fn event_notes(cluster: &Cluster, type_: &str) -> Vec<String> {
    let events = cluster
        .api::<Event>()
        .list(&ListParams::default())
        .await
        .unwrap();
    events
        .items
        .into_iter()
        .filter(|e| {
            e.regarding.as_ref().and_then(|r| r.kind.as_deref()) == Some("WebApp")
                && e.type_.as_deref() == Some(type_)
        })
        .filter_map(|e| e.note)
        .collect()
}

#[tokio::test]
async fn children_follow_image_replicas_and_port_changes() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;

    let change = json!({"spec": {"image": "nginx:1.27", "replicas": 3, "port": 9090}});
    cluster
        .api::<appv1::WebApp>()
        .patch("demo", &PatchParams::default(), &Patch::Merge(&change))
        .await
        .unwrap();

    let deployment = cluster
        .until("demo-deploy", |d: Option<&Deployment>| {
            d.is_some_and(|d| container(d).image.as_deref() == Some("nginx:1.27"))
        })
        .await;
    assert_eq!(deployment.spec.replicas, Some(3));
    assert_eq!(
        container(&deployment).ports.as_ref().unwrap()[0].container_port,
        9090
    );
    let service = cluster
        .until("demo-svc", |s: Option<&Service>| {
            s.and_then(|s| s.spec.as_ref()?.ports.as_ref()?.first().map(|p| p.port)) == Some(9090)
        })
        .await;
    let ports = service.spec.unwrap().ports.unwrap();
    assert_eq!(ports.len(), 1, "the old port is gone: {ports:?}");
    assert_eq!(ports[0].target_port, Some(IntOrString::Int(9090)));

    if cluster.pods == Pods::PlayedByTheTest {
        // The rollout has not been observed yet: the WebApp is Pending until it has.
        cluster
            .until("demo", phase(appv1::WebAppPhase::Pending))
            .await;
    }
    let status = cluster.settled("demo").await.status.unwrap();
    let expected = if cluster.pods == Pods::NeverReady {
        0
    } else {
        3
    };
    assert_eq!(status.available_replicas, expected);
    // Recorded before the status that `settled` waited for was written.
    let notes = event_notes(&cluster, "Normal").await;
    assert!(
        notes.contains(&"Updated Deployment demo-deploy, Updated Service demo-svc".to_owned()),
        "an event for the update: {notes:?}"
    );
    cluster.stop().await;
}

#[tokio::test]
async fn a_deleted_child_comes_back() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;
    let deployment: Deployment = cluster.until("demo-deploy", exists()).await;
    let service: Service = cluster.until("demo-svc", exists()).await;

    let delete = DeleteParams::default();
    cluster
        .api::<Deployment>()
        .delete("demo-deploy", &delete)
        .await
        .unwrap();
    cluster
        .api::<Service>()
        .delete("demo-svc", &delete)
        .await
        .unwrap();

    let (old_deployment, old_service) = (deployment.uid(), service.uid());
    cluster
        .until("demo-deploy", |d: Option<&Deployment>| {
            d.is_some_and(|d| d.uid() != old_deployment)
        })
        .await;
    cluster
        .until("demo-svc", |s: Option<&Service>| {
            s.is_some_and(|s| s.uid() != old_service)
        })
        .await;
    cluster.stop().await;
}

#[tokio::test]
async fn deleting_the_webapp_collects_its_children() {
    let cluster = Cluster::start().await;
    if cluster.env.is_real() && !cluster.env.runs(Binary::ControllerManager) {
        eprintln!(
            "skipped: garbage collection needs kube-controller-manager in KUBEBUILDER_ASSETS"
        );
        return;
    }
    let webapp = cluster.running("demo").await;
    let deployment: Deployment = cluster.until("demo-deploy", exists()).await;
    let service: Service = cluster.until("demo-svc", exists()).await;

    let webapps = cluster.api::<appv1::WebApp>();
    webapps
        .delete("demo", &DeleteParams::default())
        .await
        .unwrap();

    cluster
        .deleted::<appv1::WebApp>("demo", &webapp.uid().unwrap())
        .await;
    cluster
        .deleted::<Deployment>("demo-deploy", &deployment.uid().unwrap())
        .await;
    cluster
        .deleted::<Service>("demo-svc", &service.uid().unwrap())
        .await;
    cluster.stop().await;
}

#[tokio::test]
async fn an_invalid_webapp_is_rejected_by_the_schema() {
    let cluster = Cluster::start().await;
    let webapps = cluster.api::<appv1::WebApp>();
    let invalid = appv1::WebApp::new(
        "demo",
        appv1::WebAppSpec {
            image: "nginx:1.25".to_owned(),
            replicas: 11,
            port: 0,
            resources: None,
        },
    );
    let error = webapps
        .create(&PostParams::default(), &invalid)
        .await
        .unwrap_err();
    let kube::Error::Api(status) = error else {
        panic!("not an API error: {error}");
    };
    assert_eq!(status.code, 422, "{status:?}");
    for message in [
        "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        "spec.port: Invalid value: 0: spec.port in body should be greater than or equal to 1",
    ] {
        assert!(status.message.contains(message), "{}", status.message);
    }
    let deployments = cluster
        .api::<Deployment>()
        .list(&ListParams::default())
        .await
        .unwrap();
    assert!(deployments.items.is_empty());
    cluster.stop().await;
}

#[tokio::test]
async fn a_webapp_whose_service_name_would_be_invalid_is_rejected() {
    let cluster = Cluster::start().await;
    let webapps = cluster.api::<appv1::WebApp>();
    let named = |name: &str| {
        appv1::WebApp::new(
            name,
            appv1::WebAppSpec {
                image: "nginx:1.25".to_owned(),
                replicas: 1,
                port: 80,
                resources: None,
            },
        )
    };
    // Each is a valid object name, but `<name>-svc` is not a DNS-1035 label: too long, a dot,
    // a leading digit.
    for name in ["a".repeat(60), "web.app".to_owned(), "1app".to_owned()] {
        let error = webapps
            .create(&PostParams::default(), &named(&name))
            .await
            .unwrap_err();
        let kube::Error::Api(status) = error else {
            panic!("not an API error for {name}: {error}");
        };
        assert_eq!(status.code, 422, "{name}: {status:?}");
        assert!(
            status
                .message
                .contains("metadata.name must be at most 59 lowercase letters"),
            "{name}: {}",
            status.message
        );
    }
    webapps
        .create(&PostParams::default(), &named(&"a".repeat(59)))
        .await
        .expect("a name of 59 characters leaves room for -svc");
    cluster.stop().await;
}

#[tokio::test]
async fn an_object_of_the_same_name_owned_by_someone_else_is_not_taken_over() {
    let cluster = Cluster::start().await;
    let theirs: Deployment = serde_json::from_value(json!({
        "metadata": {"name": "demo-deploy"},
        "spec": {
            "selector": {"matchLabels": {"app": "theirs"}},
            "template": {
                "metadata": {"labels": {"app": "theirs"}},
                "spec": {"containers": [{"name": "theirs", "image": "busybox:1.36"}]},
            },
        },
    }))
    .unwrap();
    cluster
        .api::<Deployment>()
        .create(&PostParams::default(), &theirs)
        .await
        .unwrap();
    cluster.create("demo", "nginx:1.25", 2, 8080).await;

    let degraded = |webapp: Option<&appv1::WebApp>| {
        let status = webapp.and_then(|w| w.status.as_ref());
        status.is_some_and(|s| {
            s.conditions
                .iter()
                .any(|c| c.type_ == "Degraded" && c.status == "True" && c.reason == "NotControlled")
        })
    };
    let webapp = cluster.until("demo", degraded).await;
    let condition = webapp
        .status
        .unwrap()
        .conditions
        .into_iter()
        .find(|c| c.type_ == "Degraded")
        .unwrap();
    assert!(
        condition.message.contains("Deployment demo-deploy"),
        "{}",
        condition.message
    );
    assert_eq!(condition.observed_generation, Some(1));
    let still_theirs = cluster
        .api::<Deployment>()
        .get("demo-deploy")
        .await
        .unwrap();
    assert_eq!(
        container(&still_theirs).image.as_deref(),
        Some("busybox:1.36")
    );
    assert!(still_theirs.owner_references().is_empty());
    let events = cluster
        .api::<Event>()
        .list(&ListParams::default())
        .await
        .unwrap();
    assert!(
        events
            .items
            .iter()
            .any(|e| e.reason.as_deref() == Some("ReconcileFailed")),
        "a ReconcileFailed event"
    );
    cluster.stop().await;
}

#[tokio::test]
async fn a_webapp_being_deleted_is_not_reconciled_back() {
    let cluster = Cluster::start().await;
    if cluster.env.is_real() && !cluster.env.runs(Binary::ControllerManager) {
        eprintln!(
            "skipped: foreground deletion needs kube-controller-manager in KUBEBUILDER_ASSETS"
        );
        return;
    }
    let webapp = cluster.running("demo").await;
    cluster.env.reset_request_counts();
    cluster
        .api::<appv1::WebApp>()
        .delete("demo", &DeleteParams::foreground())
        .await
        .unwrap();
    cluster
        .deleted::<appv1::WebApp>("demo", &webapp.uid().unwrap())
        .await;
    let requests = cluster.env.request_counts().unwrap();
    for resource in ["deployments", "services"] {
        for verb in [Verb::Create, Verb::Patch] {
            assert_eq!(
                requests.get(verb, resource),
                0,
                "{verb} {resource}: {requests:?}"
            );
        }
    }
    cluster.stop().await;
}

#[tokio::test]
async fn a_conflict_on_the_status_write_is_retried() {
    let cluster = Cluster::start().await;
    let Some(server) = cluster.env.testkit() else {
        eprintln!("skipped: injecting conflicts needs the in-memory API server");
        return;
    };
    server
        .faults()
        .fail_next(Verb::Patch, "webapps.app.example.com/status", 2, 409);
    let running = cluster.running("demo").await;
    assert_eq!(running.status.unwrap().available_replicas, 2);
    let status_writes = server.counters().get(Verb::Patch, "webapps/status");
    assert!(
        status_writes >= 3,
        "2 conflicts, then a success: {status_writes}"
    );
    cluster.stop().await;
}

#[tokio::test]
async fn the_steady_state_writes_nothing() {
    let cluster = Cluster::start().await;
    for name in ["one", "two", "three"] {
        cluster.running(name).await;
    }
    // Let the reconciles that the last status writes triggered run out.
    tokio::time::sleep(Duration::from_secs(2)).await;
    cluster.env.reset_request_counts();

    // An idle period, plus a change to each WebApp that does not touch its spec (a reconcile
    // that must find nothing to do). A simulated minute on the testkit; on a real API server,
    // whose requests the test counts from its audit log, ten seconds keep the suite quick.
    let touch = json!({"metadata": {"annotations": {"example.com/touched": "yes"}}});
    for name in ["one", "two", "three"] {
        let params = PatchParams::default();
        cluster
            .api::<appv1::WebApp>()
            .patch(name, &params, &Patch::Merge(&touch))
            .await
            .unwrap();
    }
    let idle = if cluster.env.is_real() { 10 } else { 60 };
    tokio::time::sleep(Duration::from_secs(idle)).await;

    let requests = cluster.env.request_counts().unwrap();
    assert_eq!(
        requests.writes(),
        3,
        "only the test's own patches: {requests:?}"
    );
    assert_eq!(requests.verb(Verb::Get), 0, "reconciles read the caches");
    cluster.stop().await;
}

#[test]
fn a_stuck_or_failing_rollout_is_failed_and_an_unchanged_state_keeps_its_times() {
    use k8s_openapi::api::apps::v1::{DeploymentCondition, DeploymentStatus};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
    use webapp_controller::observed_status;

    let time = |seconds| Time(k8s_openapi::jiff::Timestamp::from_second(seconds).unwrap());
    let mut webapp = appv1::WebApp::new(
        "demo",
        appv1::WebAppSpec {
            image: "nginx:1.25".to_owned(),
            replicas: 2,
            port: 80,
            resources: None,
        },
    );
    webapp.metadata.generation = Some(4);
    let with = |type_: &str, status: &str, reason: &str| Deployment {
        status: Some(DeploymentStatus {
            available_replicas: Some(1),
            conditions: Some(vec![DeploymentCondition {
                type_: Some(type_.to_owned()),
                status: Some(status.to_owned()),
                reason: Some(reason.to_owned()),
                message: Some("it broke".to_owned()),
                ..Default::default()
            }]),
            ..Default::default()
        }),
        ..Default::default()
    };
    for (type_, status, reason) in [
        ("Progressing", "False", "ProgressDeadlineExceeded"),
        ("ReplicaFailure", "True", "FailedCreate"),
    ] {
        let failed = observed_status(&webapp, &with(type_, status, reason), time(10));
        assert_eq!(failed.phase, Some(appv1::WebAppPhase::Failed));
        let degraded = failed
            .conditions
            .iter()
            .find(|c| c.type_ == "Degraded")
            .unwrap();
        assert_eq!(
            (degraded.status.as_str(), degraded.reason.as_str()),
            ("True", reason)
        );
        assert_eq!(degraded.observed_generation, Some(4));
    }

    let pending = observed_status(
        &webapp,
        &with("Available", "False", "MinimumReplicasUnavailable"),
        time(10),
    );
    assert_eq!(pending.phase, Some(appv1::WebAppPhase::Pending));
    assert_eq!(pending.last_update_time, Some(time(10)));
    webapp.status = Some(pending.clone());
    let again = observed_status(
        &webapp,
        &with("Available", "False", "MinimumReplicasUnavailable"),
        time(20),
    );
    assert_eq!(again, pending, "nothing changed, so nothing to write");
}
