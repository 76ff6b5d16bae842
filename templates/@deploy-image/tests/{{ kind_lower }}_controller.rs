//! The {{ kind }} controller's tests. One test body runs on two API servers:
//!
//! - a real kube-apiserver when `KUBEBUILDER_ASSETS` names its binaries (`make setup-envtest`);
//!   with kube-controller-manager and kwok there as well, children are garbage-collected and
//!   the Deployment's pods run on a fake node;
//! - otherwise webop's in-memory API server, offline and on a paused clock (a simulated minute
//!   takes no time), with its simulation of the Deployment controller.
//!
//! The CRD comes from `config/crd/bases`, as deployed (`make test` regenerates it first), and on
//! a real API server the controller may do only what `config/rbac/role.yaml` grants.

use std::path::Path;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::events::v1::Event;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::wait::Condition;
use kube::{Api, ResourceExt};
use serde_json::json;
use webop::envtest::{Environment, exists};
use webop::manager::{Manager, Options};
use webop::testkit::Verb;

use {{ crate_name }}::controller::{{ controller_module }};
use {{ api_crate }}::{{ version_module }} as {{ api_alias }};
use {{ api_alias }}::{{ kind }}Phase as Phase;

/// An API server with the {{ kind }} CRD, and the controller running against it.
struct Cluster {
    env: Environment,
    manager: Manager,
    controller: tokio::task::JoinHandle<()>,
}

impl Cluster {
    async fn start() -> Self {
        let env = Environment::builder()
            .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
            .workloads()
            .paused_clock()
            .start()
            .await
            .expect("the test API server starts");
        let role = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/config/rbac/role.yaml"));
{%- if namespaced_manager %}
        // The manager's Role is installed in the namespace it runs in, and it watches only that
        // namespace (`--watch-namespace`), as config/manager deploys it.
        let user = {{ kind_lower }}_controller::FIELD_MANAGER;
        let client = env.client_with_rbac_in(user, &[role], "default").await.unwrap();
        let options = Options {
            watch_namespace: Some("default".to_owned()),
            ..Options::default()
        };
{%- else %}
        let user = {{ kind_lower }}_controller::FIELD_MANAGER;
        let client = env.client_with_rbac(user, &[role]).await.unwrap();
        let options = Options::default();
{%- endif %}
        let manager = Manager::with_client(client, options, "test");
        let controller = tokio::spawn({{ kind_lower }}_controller::run(manager.clone()));
        Cluster { env, manager, controller }
    }

    fn api<K>(&self) -> Api<K>
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
    {
        self.env.api()
    }

    /// Creates `name` and waits until it has settled: Running with every replica available
    /// where pods run, Pending where they never become ready.
    async fn running(&self, name: &str) -> {{ api_alias }}::{{ kind }} {
        let spec = {{ api_alias }}::{{ kind }}Spec { image: "{{ image }}".to_owned(), replicas: 2, port: {{ port }}, resources: None };
        let {{ kind_var }} = {{ api_alias }}::{{ kind }}::new(name, spec);
        self.api().create(&PostParams::default(), &{{ kind_var }}).await.unwrap();
        let expected = if self.env.pods_run() { Phase::Running } else { Phase::Pending };
        self.env.until(name, observed(expected)).await
    }

    async fn patch<K>(&self, name: &str, patch: serde_json::Value)
    where
        K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>
            + Clone + std::fmt::Debug + serde::de::DeserializeOwned,
    {
        let params = PatchParams::default();
        self.api::<K>().patch(name, &params, &Patch::Merge(&patch)).await.unwrap();
    }

    async fn stop(self) {
        self.manager.shutdown();
        let stopped = tokio::time::timeout(webop::envtest::PATIENCE, self.controller).await;
        stopped.expect("the controller stops on shutdown").unwrap();
    }
}

/// The {{ kind }} is in phase `expected`, for its current generation.
fn observed(expected: Phase) -> impl Condition<{{ api_alias }}::{{ kind }}> {
    move |{{ kind_var }}: Option<&{{ api_alias }}::{{ kind }}>| {
        {{ kind_var }}.is_some_and(|w| {
            let status = w.status.as_ref();
            let conditions = status.map(|s| s.conditions.as_slice()).unwrap_or_default();
            status.and_then(|s| s.phase) == Some(expected)
                && conditions.iter().all(|c| c.observed_generation == w.metadata.generation)
        })
    }
}

fn container(deployment: &Deployment) -> &k8s_openapi::api::core::v1::Container {
    &deployment.spec.template.spec.as_ref().unwrap().containers[0]
}

fn service_ports(service: &Service) -> Vec<(i32, Option<String>)> {
    let ports = service.spec.as_ref().and_then(|s| s.ports.clone()).unwrap_or_default();
    ports.into_iter().map(|p| (p.port, p.name)).collect()
}

/// The notes of the events of `type_` about the {{ kind }}s.
async fn event_notes(cluster: &Cluster, type_: &str) -> Vec<String> {
    let events = cluster.api::<Event>().list(&ListParams::default()).await.unwrap();
    let about = |e: &Event| e.regarding.as_ref().and_then(|r| r.kind.as_deref()) == Some("{{ kind }}");
    let events = events.items.into_iter().filter(|e| about(e) && e.type_.as_deref() == Some(type_));
    events.filter_map(|e| e.note).collect()
}

#[tokio::test]
async fn a_{{ kind_lower }}_gets_a_deployment_a_service_and_a_status() {
    let cluster = Cluster::start().await;
    let {{ kind_var }} = cluster.running("demo").await;
    let deployment: Deployment = cluster.env.until("demo-deploy", exists()).await;
    let owner = &deployment.owner_references()[0];
    assert_eq!((owner.uid.as_str(), owner.controller, owner.block_owner_deletion), ({{ kind_var }}.uid().unwrap().as_str(), Some(true), Some(true)));
    let labels = {{ kind_lower }}_controller::labels(&{{ kind_var }});
    assert_eq!(deployment.labels(), &labels);
    assert_eq!(deployment.spec.replicas, Some(2));
    assert_eq!(container(&deployment).image.as_deref(), Some("{{ image }}"));
    // Pod Security "restricted", and requests the scheduler can place.
    let security = container(&deployment).security_context.clone().unwrap();
    assert_eq!((security.run_as_non_root, security.allow_privilege_escalation), (Some(true), Some(false)));
    let requests = container(&deployment).resources.clone().unwrap().requests.unwrap();
    assert!(requests.contains_key("cpu") && requests.contains_key("memory"), "{requests:?}");
    let service: Service = cluster.env.until("demo-svc", exists()).await;
    assert_eq!(service.spec.as_ref().unwrap().selector.as_ref(), Some(&labels));
    assert_eq!(service_ports(&service), [({{ port }}, Some("http".to_owned()))]);

    let status = {{ kind_var }}.status.unwrap();
    assert!(status.last_update_time.is_some());
    let degraded = status.conditions.iter().find(|c| c.type_ == "Degraded").unwrap();
    assert_eq!(degraded.status, "False");
    let expected = if cluster.env.pods_run() { 2 } else { 0 };
    assert_eq!(status.available_replicas, expected);
    // Creating the children records no event: the status says it.
    let notes = event_notes(&cluster, "Normal").await;
    assert!(notes.is_empty(), "no event for a creation: {notes:?}");
    cluster.stop().await;
}

#[tokio::test]
async fn children_follow_the_spec_exactly() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;
    let limits = json!({"limits": {"memory": "256Mi"}, "requests": {"memory": "64Mi"}});
    let change = json!({"spec": {"image": "nginx:1.27", "replicas": 3, "port": 9090, "resources": limits}});
    cluster.patch::<{{ api_alias }}::{{ kind }}>("demo", change).await;
    let limited = |d: Option<&Deployment>| d.is_some_and(|d| container(d).resources.as_ref().is_some_and(|r| r.limits.is_some()));
    let deployment = cluster.env.until("demo-deploy", limited).await;
    assert_eq!((deployment.spec.replicas, container(&deployment).image.as_deref()), (Some(3), Some("nginx:1.27")));
    let moved = |s: Option<&Service>| s.is_some_and(|s| service_ports(s) == [(9090, Some("http".to_owned()))]);
    cluster.env.until("demo-svc", moved).await;
    // A field the spec no longer sets leaves the children.
    cluster.patch::<{{ api_alias }}::{{ kind }}>("demo", json!({"spec": {"resources": null}})).await;
    let unlimited = |d: Option<&Deployment>| d.is_some_and(|d| container(d).resources.as_ref().is_some_and(|r| r.limits.is_none()));
    cluster.env.until("demo-deploy", unlimited).await;
    // Each child updated gets its own event.
    let notes = event_notes(&cluster, "Normal").await;
    for child in ["Deployment demo-deploy", "Service demo-svc"] {
        assert!(notes.iter().any(|n| n.contains(child)), "{child}: {notes:?}");
    }
    cluster.stop().await;
}

#[tokio::test]
async fn hand_edits_of_the_children_are_undone() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;
    let port = json!({"spec": {"ports": [{"name": "http", "port": 9999, "targetPort": 9999, "protocol": "TCP"}]}});
    cluster.patch::<Service>("demo-svc", port).await;
    let restored = |s: Option<&Service>| s.is_some_and(|s| service_ports(s) == [({{ port }}, Some("http".to_owned()))]);
    cluster.env.until("demo-svc", restored).await;

    // A merge patch replaces the containers: another port, no securityContext, no resources.
    let deployment: Deployment = cluster.env.until("demo-deploy", exists()).await;
    let (name, image) = (&container(&deployment).name, &container(&deployment).image);
    let edit = json!({"metadata": {"labels": {"app.kubernetes.io/name": null}}, "spec": {"replicas": 5, "template": {"spec": {
        "containers": [{"name": name, "image": image, "ports": [{"containerPort": 9999, "name": "http", "protocol": "TCP"}]}]}}}});
    cluster.patch::<Deployment>("demo-deploy", edit).await;
    let undone = |d: Option<&Deployment>| d.is_some_and(|d| {
        let ports: Vec<i32> = container(d).ports.iter().flatten().map(|p| p.container_port).collect();
        let security = container(d).security_context.as_ref().and_then(|s| s.allow_privilege_escalation);
        d.spec.replicas == Some(2) && ports == [{{ port }}] && security == Some(false) && d.labels().len() == 3
    });
    cluster.env.until("demo-deploy", undone).await;

    let uid = deployment.uid();
    cluster.api::<Deployment>().delete("demo-deploy", &DeleteParams::default()).await.unwrap();
    cluster.env.until("demo-deploy", |d: Option<&Deployment>| d.is_some_and(|d| d.uid() != uid)).await;
    cluster.stop().await;
}

#[tokio::test]
async fn foreground_deletion_deletes_the_children_first_and_recreates_nothing() {
    let cluster = Cluster::start().await;
    let {{ kind_var }} = cluster.running("demo").await;
    cluster.env.reset_request_counts();
    cluster.api::<{{ api_alias }}::{{ kind }}>().delete("demo", &DeleteParams::foreground()).await.unwrap();
    // The children block the {{ kind }}'s deletion (`blockOwnerDeletion`): once it is gone, so are they.
    cluster.env.deleted::<{{ api_alias }}::{{ kind }}>("demo", &{{ kind_var }}.uid().unwrap()).await;
    assert!(cluster.api::<Deployment>().get_opt("demo-deploy").await.unwrap().is_none());
    assert!(cluster.api::<Service>().get_opt("demo-svc").await.unwrap().is_none());
    let requests = cluster.env.request_counts().unwrap();
    for resource in ["deployments", "services"] {
        for verb in [Verb::Create, Verb::Patch] {
            assert_eq!(requests.get(verb, resource), 0, "{verb} {resource}: {requests:?}");
        }
    }
    cluster.stop().await;
}

#[tokio::test]
async fn an_invalid_{{ kind_lower }}_is_rejected_by_the_schema() {
    let cluster = Cluster::start().await;
    let spec = |replicas, port| {{ api_alias }}::{{ kind }}Spec { image: "{{ image }}".to_owned(), replicas, port, resources: None };
    let {{ plural_var }} = cluster.api::<{{ api_alias }}::{{ kind }}>();
    let create = |name: &str, spec| {
        let ({{ kind_var }}, {{ plural_var }}) = ({{ api_alias }}::{{ kind }}::new(name, spec), {{ plural_var }}.clone());
        async move { {{ plural_var }}.create(&PostParams::default(), &{{ kind_var }}).await }
    };
    let refused = |result: Result<{{ api_alias }}::{{ kind }}, kube::Error>| match result {
        Err(kube::Error::Api(status)) if status.code == 422 => status.message,
        other => panic!("not refused: {other:?}"),
    };
    let message = refused(create("demo", spec(11, 0)).await);
    assert!(message.contains("spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"), "{message}");
    assert!(message.contains("spec.port: Invalid value: 0: spec.port in body should be greater than or equal to 1"), "{message}");
    // Valid object names, but `<name>-svc` is not a DNS-1035 label: too long, a dot, a digit.
    for name in ["a".repeat(60), "web.app".to_owned(), "1app".to_owned()] {
        let message = refused(create(&name, spec(1, {{ port }})).await);
        assert!(message.contains("metadata.name must be at most 59 lowercase letters"), "{name}: {message}");
    }
    create(&"a".repeat(59), spec(1, {{ port }})).await.expect("59 characters leave room for -svc");
    cluster.stop().await;
}

#[tokio::test]
async fn an_object_owned_by_someone_else_is_not_taken_over_and_the_status_says_so() {
    let cluster = Cluster::start().await;
    let theirs: Deployment = serde_json::from_value(json!({"metadata": {"name": "demo-deploy"}, "spec": {
        "selector": {"matchLabels": {"app": "theirs"}}, "template": {"metadata": {"labels": {"app": "theirs"}},
        "spec": {"containers": [{"name": "theirs", "image": "busybox:1.36"}]}}}}))
    .unwrap();
    cluster.api::<Deployment>().create(&PostParams::default(), &theirs).await.unwrap();
    let spec = {{ api_alias }}::{{ kind }}Spec { image: "{{ image }}".to_owned(), replicas: 1, port: {{ port }}, resources: None };
    cluster.api().create(&PostParams::default(), &{{ api_alias }}::{{ kind }}::new("demo", spec)).await.unwrap();

    let {{ kind_var }} = cluster.env.until("demo", observed(Phase::Failed)).await;
    let status = {{ kind_var }}.status.unwrap();
    let degraded = status.conditions.iter().find(|c| c.type_ == "Degraded").unwrap();
    assert_eq!((degraded.status.as_str(), degraded.reason.as_str()), ("True", "NotControlled"));
    assert!(degraded.message.contains("Deployment demo-deploy"), "{}", degraded.message);
    assert!(!degraded.message.contains('\n') && !degraded.message.contains("Status {"), "{}", degraded.message);
    let still_theirs = cluster.api::<Deployment>().get("demo-deploy").await.unwrap();
    assert_eq!(container(&still_theirs).image.as_deref(), Some("busybox:1.36"));
    assert!(still_theirs.owner_references().is_empty());
    let warnings = event_notes(&cluster, "Warning").await;
    assert!(warnings.iter().any(|n| n.contains("demo-deploy")), "{warnings:?}");
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
    // An idle period, with a change to each {{ kind }} that does not touch its spec (a reconcile
    // that must find nothing to do): a simulated minute on the testkit, 30 s on a real server.
    let touch = json!({"metadata": {"annotations": {"example.com/touched": "yes"}}});
    for name in ["one", "two", "three"] {
        cluster.patch::<{{ api_alias }}::{{ kind }}>(name, touch.clone()).await;
    }
    let idle = if cluster.env.is_real() { 30 } else { 60 };
    tokio::time::sleep(Duration::from_secs(idle)).await;
    let requests = cluster.env.request_counts().unwrap();
    assert_eq!(requests.writes(), 3, "only the test's own patches: {requests:?}");
    assert_eq!(requests.verb(Verb::Get), 0, "reconciles read the caches");
    cluster.stop().await;
}
