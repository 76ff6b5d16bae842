//! A faithful kube-rs port of the tutorial's reconcile loop (shared/seed/, Go on
//! controller-runtime), to measure the generated controller against.
//!
//! Same logic as the Go: the Deployment is created if missing, else updated only when replicas
//! or image differ; the Service is created if missing, never updated; the status is replaced
//! with a new `lastUpdateTime` on every pass; every pass requeues after 30 s. One reconcile
//! runs at a time, failures back off per object (5 ms doubling), and the client is limited to
//! client-go's 20 QPS with a burst of 30, like the webop controller it is compared to.
//!
//! Each `r.Get` is ported two ways ([`Reads`]): as a kube-rs user writes it, a GET (kube-rs
//! has no cache-backed client), and as controller-runtime runs it, a read of the informer
//! cache.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{
    Container, ContainerPort, PodSpec, PodTemplateSpec, Service, ServicePort, ServiceSpec,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::PostParams;
use kube::runtime::controller::{Action, Config, Controller};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client, Resource, ResourceExt};
use webop::manager::{Backoff, object_key};

use crate::webapp_operator_api::v1::{WebApp, WebAppPhase, WebAppStatus};

/// The wall clock as the simulated (paused Tokio) clock moves it.
#[derive(Clone, Copy)]
pub struct SimulatedClock {
    wall: k8s_openapi::jiff::Timestamp,
    start: tokio::time::Instant,
}

impl SimulatedClock {
    pub fn start() -> Self {
        SimulatedClock {
            wall: k8s_openapi::jiff::Timestamp::now(),
            start: tokio::time::Instant::now(),
        }
    }

    /// `metav1.Now()`.
    pub fn now(&self) -> Time {
        let elapsed = k8s_openapi::jiff::SignedDuration::try_from(self.start.elapsed()).unwrap();
        Time(self.wall.checked_add(elapsed).unwrap())
    }
}

/// How the port's `r.Get` calls read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reads {
    /// `Api::get`: what the tutorial's loop becomes in kube-rs.
    Api,
    /// The reflector caches: what controller-runtime's client does in Go.
    Cache,
}

struct Context {
    reads: Reads,
    client: Client,
    deployments: Store<Deployment>,
    services: Store<Service>,
    backoff: Backoff,
    clock: SimulatedClock,
}

/// Runs the tutorial's controller until `shutdown` resolves.
pub async fn run(
    reads: Reads,
    client: Client,
    clock: SimulatedClock,
    shutdown: impl Future<Output = ()> + Send + Sync + 'static,
) {
    let (deployments, deployment_changes) = cache::<Deployment>(&client);
    let (services, service_changes) = cache::<Service>(&client);
    let context = Arc::new(Context {
        reads,
        client: client.clone(),
        deployments,
        services,
        backoff: Backoff::default(),
        clock,
    });
    Controller::new(Api::<WebApp>::all(client), watcher::Config::default())
        .owns_stream(deployment_changes)
        .owns_stream(service_changes)
        .with_config(Config::default().concurrency(1))
        .graceful_shutdown_on(shutdown)
        .run(reconcile, error_policy, context)
        .for_each(|_| std::future::ready(()))
        .await;
}

fn cache<K>(
    client: &Client,
) -> (
    Store<K>,
    impl futures::Stream<Item = Result<K, watcher::Error>> + Send + 'static,
)
where
    K: Resource<DynamicType = ()>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
{
    let (store, writer) = reflector::store();
    let changes = watcher(Api::<K>::all(client.clone()), watcher::Config::default())
        .default_backoff()
        .reflect(writer)
        .touched_objects();
    (store, changes)
}

/// `r.Get` of `name` in `namespace`: from the API server or from `cache`.
async fn get<K>(
    ctx: &Context,
    cache: &Store<K>,
    namespace: &str,
    name: &str,
) -> Result<Option<K>, kube::Error>
where
    K: Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
{
    match ctx.reads {
        Reads::Api => {
            Api::<K>::namespaced(ctx.client.clone(), namespace)
                .get_opt(name)
                .await
        }
        Reads::Cache => Ok(cache
            .get(&ObjectRef::new(name).within(namespace))
            .map(|o| (*o).clone())),
    }
}

async fn reconcile(cached: Arc<WebApp>, ctx: Arc<Context>) -> Result<Action, kube::Error> {
    let namespace = cached.namespace().unwrap_or_default();
    let name = cached.name_any();

    // 1. Get the WebApp (gone: nothing to do).
    let webapp = match ctx.reads {
        Reads::Cache => cached,
        Reads::Api => match Api::<WebApp>::namespaced(ctx.client.clone(), &namespace)
            .get_opt(&name)
            .await?
        {
            Some(webapp) => Arc::new(webapp),
            None => return Ok(Action::await_change()),
        },
    };

    // 2. Ensure the Deployment exists; update replicas and image if they differ.
    let deployments = Api::<Deployment>::namespaced(ctx.client.clone(), &namespace);
    let deployment_name = format!("{name}-deploy");
    let mut deployment = match get(&ctx, &ctx.deployments, &namespace, &deployment_name).await? {
        None => {
            deployments
                .create(&PostParams::default(), &build_deployment(&webapp))
                .await?
        }
        Some(cached) => {
            let mut deployment = cached;
            let mut need_update = false;
            if deployment.spec.replicas != Some(webapp.spec.replicas) {
                deployment.spec.replicas = Some(webapp.spec.replicas);
                need_update = true;
            }
            let pod = deployment
                .spec
                .template
                .spec
                .get_or_insert_with(Default::default);
            if let Some(container) = pod.containers.first_mut()
                && container.image.as_deref() != Some(webapp.spec.image.as_str())
            {
                container.image = Some(webapp.spec.image.clone());
                need_update = true;
            }
            if need_update {
                deployments
                    .replace(&deployment_name, &PostParams::default(), &deployment)
                    .await?
            } else {
                deployment
            }
        }
    };

    // 3. Ensure the Service exists (never updated).
    let service_name = format!("{name}-svc");
    if get(&ctx, &ctx.services, &namespace, &service_name)
        .await?
        .is_none()
    {
        let services = Api::<Service>::namespaced(ctx.client.clone(), &namespace);
        services
            .create(&PostParams::default(), &build_service(&webapp))
            .await?;
    }

    // 4. Update the status: `r.Get` the Deployment again (errors ignored), new time every pass.
    if let Ok(Some(again)) = get(&ctx, &ctx.deployments, &namespace, &deployment_name).await {
        deployment = again;
    }
    let available = deployment
        .status
        .and_then(|s| s.available_replicas)
        .unwrap_or(0);
    let mut updated = (*webapp).clone();
    let mut status = updated.status.take().unwrap_or_default();
    status.available_replicas = available;
    status.phase = Some(if available == webapp.spec.replicas {
        WebAppPhase::Running
    } else {
        WebAppPhase::Pending
    });
    status.last_update_time = Some(ctx.clock.now());
    updated.status = Some(WebAppStatus { ..status });
    let webapps = Api::<WebApp>::namespaced(ctx.client.clone(), &namespace);
    webapps
        .replace_status(&name, &PostParams::default(), &updated)
        .await?;

    ctx.backoff.reset(&object_key(&*webapp));
    Ok(Action::requeue(Duration::from_secs(30)))
}

fn error_policy(webapp: Arc<WebApp>, _: &kube::Error, ctx: Arc<Context>) -> Action {
    Action::requeue(ctx.backoff.next_delay(&object_key(&*webapp)))
}

fn build_deployment(webapp: &WebApp) -> Deployment {
    let labels = BTreeMap::from([("app".to_owned(), webapp.name_any())]);
    Deployment {
        metadata: owned_metadata(webapp, "deploy"),
        spec: DeploymentSpec {
            replicas: Some(webapp.spec.replicas),
            selector: LabelSelector {
                match_labels: Some(labels.clone()),
                ..Default::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(labels),
                    ..Default::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "app".to_owned(),
                        image: Some(webapp.spec.image.clone()),
                        ports: Some(vec![ContainerPort {
                            container_port: webapp.spec.port,
                            ..Default::default()
                        }]),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

fn build_service(webapp: &WebApp) -> Service {
    Service {
        metadata: owned_metadata(webapp, "svc"),
        spec: Some(ServiceSpec {
            selector: Some(BTreeMap::from([("app".to_owned(), webapp.name_any())])),
            ports: Some(vec![ServicePort {
                port: webapp.spec.port,
                target_port: Some(IntOrString::Int(webapp.spec.port)),
                ..Default::default()
            }]),
            type_: Some("ClusterIP".to_owned()),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `SetControllerReference`.
fn owned_metadata(webapp: &WebApp, suffix: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(format!("{}-{suffix}", webapp.name_any())),
        namespace: webapp.namespace(),
        owner_references: webapp.controller_owner_ref(&()).map(|o| vec![o]),
        ..Default::default()
    }
}
