//! The {{ kind }} controller's tests, on a real kube-apiserver when `KUBEBUILDER_ASSETS` names its
//! binaries (with kube-controller-manager and kwok if there), else on webop's in-memory API
//! server with a simulated Deployment controller. The CRD is `config/crd/bases`'; the controller
//! may do only what `config/rbac/role.yaml` grants, in the namespace it watches (its Roles are
//! installed there, as kustomize's `namespace:` deploys them).

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::Container;
use kube::ResourceExt;
use kube::runtime::wait::Condition;
use serde_json::json;
use webop::envtest::{Environment, PATIENCE, exists};
use webop::manager::{Manager, Options};

use {{ crate_name }}::controller::{{ controller_module }};
use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

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
        let (user, roles) = ({{ controller_file }}_controller::FIELD_MANAGER, [std::path::Path::new(role)]);
        let client = env.client_with_rbac_in(user, &roles, "default").await;
        let options = Options {
            watch_namespace: Some("default".to_owned()),
            ..Options::default()
        };
        let manager = Manager::with_client(client.unwrap(), options, "test");
        let controller = tokio::spawn({{ controller_file }}_controller::run(manager.clone()));
        Cluster {
            env,
            manager,
            controller,
        }
    }

    async fn stop(self) {
        self.manager.shutdown();
        let stopped = tokio::time::timeout(PATIENCE, self.controller).await;
        stopped.expect("the controller stops on shutdown").unwrap();
    }
}

/// A {{ kind }} of `size` replicas, its spec as kubebuilder's sample writes it.
fn sample(name: &str, size: i32) -> {{ api_alias }}::{{ kind }} {
{%- if container_port %}
    let spec = json!({"size": size, "containerPort": {{ port }}});
{%- else %}
    let spec = json!({"size": size});
{%- endif %}
    let spec = serde_json::from_value(spec).expect("a {{ kind }}Spec");
    {{ api_alias }}::{{ kind }}::new(name, spec)
}

/// The {{ kind }}'s condition `type_` has `status`, for its current generation.
fn condition(type_: &'static str, status: &'static str) -> impl Condition<{{ api_alias }}::{{ kind }}> {
    move |{{ kind_var }}: Option<&{{ api_alias }}::{{ kind }}>| {
        let Some({{ kind_var }}) = {{ kind_var }} else {
            return false;
        };
        let conditions = {{ kind_var }}.status.as_ref().and_then(|s| s.conditions.as_ref());
        let found = conditions.into_iter().flatten().find(|c| c.type_ == type_);
        found.is_some_and(|c| c.status == status && c.observed_generation == {{ kind_var }}.metadata.generation)
    }
}

/// The Deployment's spec (optional in the types of Kubernetes releases before 1.37).
fn spec(deployment: &Deployment) -> DeploymentSpec {
    let spec = serde_json::to_value(&deployment.spec).unwrap();
    serde_json::from_value(spec).expect("a Deployment has a spec")
}

fn container(deployment: &Deployment) -> Container {
    spec(deployment).template.spec.unwrap().containers.remove(0)
}

#[tokio::test]
async fn a_{{ kind_lower }}_runs_the_image_of_the_options_as_a_deployment_of_its_size() {
    let cluster = Cluster::start().await;
    let env = &cluster.env;
    env.create(&sample("demo", 2)).await;
    let available = ["False", "True"][usize::from(env.pods_run())];
    let {{ kind_var }} = env.until("demo", condition("Available", available)).await;
    let deployment: Deployment = env.until("demo", exists()).await;
    let owner = &deployment.owner_references()[0];
    assert_eq!(Some(&owner.uid), {{ kind_var }}.metadata.uid.as_ref());
    assert_eq!(owner.controller, Some(true));
    assert_eq!(spec(&deployment).replicas, Some(2));
    let container = container(&deployment);
    let image = std::env::var({{ controller_file }}_controller::IMAGE_ENV);
    let image = image.unwrap_or_else(|_| {{ controller_file }}_controller::IMAGE.to_owned());
    assert_eq!(container.image.as_deref(), Some(image.as_str()));
{%- if container_command %}
    let command = {{ controller_file }}_controller::COMMAND.iter().map(|arg| arg.to_string());
    assert_eq!(container.command, Some(command.collect()));
{%- endif %}
{%- if container_port %}
    let ports = container.ports.as_deref().unwrap_or_default();
    assert_eq!(ports.iter().map(|p| p.container_port).collect::<Vec<_>>(), [{{ port }}]);
{%- endif %}
    // Pod Security "restricted".
    let security = container.security_context.clone().unwrap();
    assert_eq!(security.run_as_non_root, Some(true));
    assert_eq!(security.allow_privilege_escalation, Some(false));
{%- if run_as_user %}
    assert_eq!(security.run_as_user, Some({{ run_as_user }}));
{%- endif %}
    cluster.env.until("demo", condition("Degraded", "False")).await;
    cluster.stop().await;
}

#[tokio::test]
async fn the_deployment_follows_the_size_and_hand_edits_are_undone() {
    let cluster = Cluster::start().await;
    let env = &cluster.env;
    env.create(&sample("demo", 1)).await;
    env.until::<Deployment>("demo", exists()).await;
    let size = json!({"spec": {"size": 3}});
    env.merge_patch::<{{ api_alias }}::{{ kind }}>("demo", size).await;
    let replicas = |n: i32| move |d: Option<&Deployment>| d.is_some_and(|d| spec(d).replicas == Some(n));
    env.until("demo", replicas(3)).await;
    let edit = json!({"spec": {"replicas": 5}});
    env.merge_patch::<Deployment>("demo", edit).await;
    env.until("demo", replicas(3)).await;
    cluster.stop().await;
}

#[tokio::test]
async fn a_deployment_owned_by_someone_else_is_not_taken_over_and_the_status_says_so() {
    let cluster = Cluster::start().await;
    let theirs = json!({"metadata": {"name": "demo"}, "spec": {
        "selector": {"matchLabels": {"app": "theirs"}}, "template": {"metadata": {"labels": {"app": "theirs"}},
        "spec": {"containers": [{"name": "theirs", "image": "busybox:1.36"}]}}}});
    let env = &cluster.env;
    let theirs: Deployment = serde_json::from_value(theirs).unwrap();
    env.create(&theirs).await;
    env.create(&sample("demo", 1)).await;
    let failed = env.until("demo", condition("Degraded", "True")).await;
    let conditions = failed.status.and_then(|s| s.conditions).unwrap_or_default();
    let degraded = conditions.iter().find(|c| c.type_ == "Degraded").unwrap();
    assert_eq!(degraded.reason, "NotControlled");
    let still_theirs: Deployment = env.until("demo", exists()).await;
    assert_eq!(container(&still_theirs).image.as_deref(), Some("busybox:1.36"));
    assert!(still_theirs.owner_references().is_empty());
    cluster.stop().await;
}
