//! The {{ kind }} controller's tests, on a real kube-apiserver when `KUBEBUILDER_ASSETS` names its
//! binaries (with kube-controller-manager and kwok if there), else on webop's in-memory API
//! server with a simulated Deployment controller. The CRD is `config/crd/bases`'; on a real API
//! server the controller may do only what `config/rbac/role.yaml` grants.

use std::path::Path;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{Container, Service};
use kube::ResourceExt;
use kube::api::{DeleteParams, PostParams};
use kube::runtime::wait::Condition;
use serde_json::json;
use webop::envtest::{Environment, PATIENCE, exists};
use webop::manager::{Manager, Options};
use webop::testkit::Verb;

use {{ crate_name }}::controller::{{ controller_module }};
use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

type Phase = {{ api_alias }}::{{ kind }}Phase;

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
        let role = concat!(env!("CARGO_MANIFEST_DIR"), "/config/rbac/role.yaml");
        let (user, roles) = ({{ controller_file }}_controller::FIELD_MANAGER, [Path::new(role)]);
{%- if namespaced_manager %}
        // The manager's Role in its namespace, which it alone watches, as config/manager deploys it.
        let client = env.client_with_rbac_in(user, &roles, "default").await;
        let options = Options {
            watch_namespace: Some("default".to_owned()),
            ..Options::default()
        };
        let manager = Manager::with_client(client.unwrap(), options, "test");
{%- else %}
        let client = env.client_with_rbac(user, &roles).await.unwrap();
        let manager = Manager::with_client(client, Options::default(), "test");
{%- endif %}
        let controller = tokio::spawn({{ controller_file }}_controller::run(manager.clone()));
        Cluster {
            env,
            manager,
            controller,
        }
    }

    /// Creates `name` and waits until it has settled: Running where pods run, else Pending.
    async fn running(&self, name: &str) -> {{ api_alias }}::{{ kind }} {
        self.env.create(&sample(name, 2, {{ port }})).await;
        let expected = [Phase::Pending, Phase::Running][usize::from(self.env.pods_run())];
        self.env.until(name, observed(expected)).await
    }

    async fn stop(self) {
        self.manager.shutdown();
        let stopped = tokio::time::timeout(PATIENCE, self.controller).await;
        stopped.expect("the controller stops on shutdown").unwrap();
    }
}

fn sample(name: &str, replicas: i32, port: i32) -> {{ api_alias }}::{{ kind }} {
    let image = "{{ image }}".to_owned();
    let spec = {{ api_alias }}::{{ kind }}Spec {
        image,
        replicas,
        port,
        resources: None,
    };
    {{ api_alias }}::{{ kind }}::new(name, spec)
}

/// The {{ kind }} is in phase `expected`, for its current generation.
fn observed(expected: Phase) -> impl Condition<{{ api_alias }}::{{ kind }}> {
    move |{{ kind_var }}: Option<&{{ api_alias }}::{{ kind }}>| {
        let Some(status) = {{ kind_var }}.and_then(|w| w.status.as_ref()) else {
            return false;
        };
        let generation = {{ kind_var }}.and_then(|w| w.metadata.generation);
        let mut conditions = status.conditions.iter();
        status.phase == Some(expected) && conditions.all(|c| c.observed_generation == generation)
    }
}

fn container(deployment: &Deployment) -> &Container {
    &deployment.spec.template.spec.as_ref().unwrap().containers[0]
}

fn ports(service: &Service) -> Vec<(i32, Option<String>)> {
    let ports = service.spec.as_ref().and_then(|s| s.ports.clone());
    let ports = ports.unwrap_or_default().into_iter();
    ports.map(|p| (p.port, p.name)).collect()
}

/// The Service exposes `port` only, named `http`.
fn exposes(port: i32) -> impl Condition<Service> {
    move |s: Option<&Service>| s.is_some_and(|s| ports(s) == [(port, Some("http".to_owned()))])
}

#[tokio::test]
async fn a_{{ kind_lower }}_gets_a_deployment_a_service_and_a_status() {
    let cluster = Cluster::start().await;
    let {{ kind_var }} = cluster.running("demo").await;
    let deployment: Deployment = cluster.env.until("demo-deploy", exists()).await;
    let owner = &deployment.owner_references()[0];
    assert_eq!(Some(&owner.uid), {{ kind_var }}.metadata.uid.as_ref());
    let controls = (owner.controller, owner.block_owner_deletion);
    assert_eq!(controls, (Some(true), Some(true)));
    let labels = {{ controller_file }}_controller::labels(&{{ kind_var }});
    assert_eq!(deployment.labels(), &labels);
    assert_eq!(deployment.spec.replicas, Some(2));
    let image = container(&deployment).image.as_deref();
    assert_eq!(image, Some("{{ image }}"));
{%- if container_command %}
    let command = {{ controller_file }}_controller::COMMAND.iter().map(|arg| arg.to_string());
    assert_eq!(container(&deployment).command, Some(command.collect()));
{%- endif %}
    // Pod Security "restricted", and requests the scheduler can place.
    let security = container(&deployment).security_context.clone().unwrap();
    assert_eq!(security.run_as_non_root, Some(true));
    assert_eq!(security.allow_privilege_escalation, Some(false));
    let resources = container(&deployment).resources.clone().unwrap();
    let requests = resources.requests.unwrap();
    assert!(requests.contains_key("cpu") && requests.contains_key("memory"));
    let service: Service = cluster.env.until("demo-svc", exposes({{ port }})).await;
    assert_eq!(service.spec.unwrap().selector, Some(labels));
    let status = {{ kind_var }}.status.unwrap();
    assert!(status.last_update_time.is_some());
    let degraded = status.conditions.iter().find(|c| c.type_ == "Degraded");
    assert_eq!(degraded.unwrap().status, "False");
    let available = [0, 2][usize::from(cluster.env.pods_run())];
    assert_eq!(status.available_replicas, available);
    // Creating the children records no event: the status says it.
    let notes = cluster.env.event_notes("{{ kind }}", "Normal").await;
    assert!(notes.is_empty(), "no event for a creation: {notes:?}");
    cluster.stop().await;
}

#[tokio::test]
async fn children_follow_the_spec_exactly() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;
    let limits = json!({"limits": {"memory": "256Mi"}, "requests": {"memory": "64Mi"}});
    let spec = json!({"image": "nginx:1.27", "replicas": 3, "port": 9090, "resources": limits});
    let env = &cluster.env;
    let change = json!({"spec": spec});
    env.merge_patch::<{{ api_alias }}::{{ kind }}>("demo", change).await;
    let limited = |limited: bool| {
        move |d: Option<&Deployment>| {
            let resources = d.and_then(|d| container(d).resources.as_ref());
            resources.is_some_and(|r| r.limits.is_some() == limited)
        }
    };
    let deployment = env.until("demo-deploy", limited(true)).await;
    assert_eq!(deployment.spec.replicas, Some(3));
    assert_eq!(container(&deployment).image.as_deref(), Some("nginx:1.27"));
    env.until("demo-svc", exposes(9090)).await;
    // A field the spec no longer sets leaves the children.
    let unset = json!({"spec": {"resources": null}});
    env.merge_patch::<{{ api_alias }}::{{ kind }}>("demo", unset).await;
    env.until("demo-deploy", limited(false)).await;
    // Each child updated gets its own event.
    let notes = env.event_notes("{{ kind }}", "Normal").await;
    for child in ["Deployment demo-deploy", "Service demo-svc"] {
        assert!(notes.iter().any(|n| n.contains(child)), "{notes:?}");
    }
    cluster.stop().await;
}

#[tokio::test]
async fn hand_edits_of_the_children_are_undone() {
    let cluster = Cluster::start().await;
    cluster.running("demo").await;
    let env = &cluster.env;
    // `kubectl patch --type merge` replaces the ports: ours goes, another takes its name.
    let port = json!({"spec": {"ports": [{"name": "http", "port": 9999, "targetPort": 9999, "protocol": "TCP"}]}});
    env.merge_patch::<Service>("demo-svc", port).await;
    env.until("demo-svc", exposes({{ port }})).await;
    // Containers replaced (another port, no securityContext), replicas changed, a label removed.
    let deployment: Deployment = env.until("demo-deploy", exists()).await;
    let (name, image) = (&container(&deployment).name, &container(&deployment).image);
    let edit = json!({"metadata": {"labels": {"app.kubernetes.io/name": null}}, "spec": {"replicas": 5,
        "template": {"spec": {"containers": [{"name": name, "image": image,
        "ports": [{"containerPort": 9999, "name": "http", "protocol": "TCP"}]}]}}}});
    env.merge_patch::<Deployment>("demo-deploy", edit).await;
    let undone = |d: Option<&Deployment>| {
        d.is_some_and(|d| {
            let ports = container(d).ports.as_deref().unwrap_or_default();
            let ports = ports.iter().map(|p| p.container_port);
            let security = container(d).security_context.as_ref();
            let escalation = security.and_then(|s| s.allow_privilege_escalation);
            let replicas = d.spec.replicas == Some(2) && d.labels().len() == 3;
            replicas && ports.eq([{{ port }}]) && escalation == Some(false)
        })
    };
    env.until("demo-deploy", undone).await;

    env.delete::<Deployment>("demo-deploy").await;
    let recreated = |d: Option<&Deployment>| d.is_some_and(|d| d.uid() != deployment.uid());
    env.until("demo-deploy", recreated).await;
    cluster.stop().await;
}

#[tokio::test]
async fn foreground_deletion_deletes_the_children_first_and_recreates_nothing() {
    let cluster = Cluster::start().await;
    let uid = cluster.running("demo").await.uid().unwrap();
    let env = &cluster.env;
    env.reset_request_counts();
    let {{ plural_var }} = env.api::<{{ api_alias }}::{{ kind }}>();
    let foreground = DeleteParams::foreground();
    {{ plural_var }}.delete("demo", &foreground).await.unwrap();
    // The children block the {{ kind }}'s deletion: once it is gone, so are they.
    env.deleted::<{{ api_alias }}::{{ kind }}>("demo", &uid).await;
    assert!(!env.exists::<Deployment>("demo-deploy").await);
    assert!(!env.exists::<Service>("demo-svc").await);
    let requests = env.request_counts().unwrap();
    for resource in ["deployments", "services"] {
        for verb in [Verb::Create, Verb::Patch] {
            assert_eq!(requests.get(verb, resource), 0, "{verb} {resource}");
        }
    }
    cluster.stop().await;
}

#[tokio::test]
async fn an_invalid_{{ kind_lower }}_is_rejected_by_the_schema() {
    let cluster = Cluster::start().await;
    let {{ plural_var }} = cluster.env.api::<{{ api_alias }}::{{ kind }}>();
    let refused = async |{{ kind_var }}| match {{ plural_var }}.create(&PostParams::default(), &{{ kind_var }}).await {
        Err(kube::Error::Api(status)) if status.code == 422 => status.message,
        other => panic!("not refused: {other:?}"),
    };
    let message = refused(sample("demo", 11, 0)).await;
    for field in [
        "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        "spec.port: Invalid value: 0: spec.port in body should be greater than or equal to 1",
    ] {
        assert!(message.contains(field), "{message}");
    }
    // Valid object names, but `<name>-svc` is not a DNS-1035 label: too long, a dot, a digit.
    for name in ["a".repeat(60), "web.app".to_owned(), "1app".to_owned()] {
        let message = refused(sample(&name, 1, {{ port }})).await;
        let rule = "metadata.name must be at most 59 lowercase letters";
        assert!(message.contains(rule), "{name}: {message}");
    }
    cluster.env.create(&sample(&"a".repeat(59), 1, {{ port }})).await;
    cluster.stop().await;
}

#[tokio::test]
async fn an_object_owned_by_someone_else_is_not_taken_over_and_the_status_says_so() {
    let cluster = Cluster::start().await;
    let theirs = json!({"metadata": {"name": "demo-deploy"}, "spec": {
        "selector": {"matchLabels": {"app": "theirs"}}, "template": {"metadata": {"labels": {"app": "theirs"}},
        "spec": {"containers": [{"name": "theirs", "image": "busybox:1.36"}]}}}});
    let env = &cluster.env;
    let theirs: Deployment = serde_json::from_value(theirs).unwrap();
    env.create(&theirs).await;
    env.create(&sample("demo", 1, {{ port }})).await;
    let failed = env.until("demo", observed(Phase::Failed)).await;
    let conditions = failed.status.unwrap().conditions;
    let degraded = conditions.iter().find(|c| c.type_ == "Degraded").unwrap();
    assert_eq!(degraded.status, "True");
    assert_eq!(degraded.reason, "NotControlled");
    let message = &degraded.message;
    assert!(message.contains("Deployment demo-deploy"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");
    assert!(!message.contains("Status {"), "no Debug output: {message}");
    let still_theirs: Deployment = env.until("demo-deploy", exists()).await;
    let image = container(&still_theirs).image.as_deref();
    assert_eq!(image, Some("busybox:1.36"));
    assert!(still_theirs.owner_references().is_empty());
    let notes = env.event_notes("{{ kind }}", "Warning").await;
    assert!(notes.iter().any(|n| n.contains("demo-deploy")), "{notes:?}");
    cluster.stop().await;
}

#[tokio::test]
async fn the_steady_state_writes_nothing() {
    let cluster = Cluster::start().await;
    for name in ["one", "two", "three"] {
        cluster.running(name).await;
    }
    let env = &cluster.env;
    tokio::time::sleep(Duration::from_secs(2)).await; // the reconciles of the last status writes
    env.reset_request_counts();
    // Idle, but for a change that a reconcile must find leaves nothing to do.
    let touch = json!({"metadata": {"annotations": {"example.com/touched": "yes"}}});
    for name in ["one", "two", "three"] {
        env.merge_patch::<{{ api_alias }}::{{ kind }}>(name, touch.clone()).await;
    }
    // A hot loop shows within seconds; the real server's longer watch covers slower ones.
    tokio::time::sleep(Duration::from_secs(if env.is_real() { 30 } else { 10 })).await;
    let requests = env.request_counts().unwrap();
    // Only the test's own patches.
    assert_eq!(requests.writes(), 3, "{requests:?}");
    assert_eq!(requests.verb(Verb::Get), 0, "reconciles read the caches");
    cluster.stop().await;
}
