//! One scenario, two API servers: [`scenario!`](crate::scenario) turns one test body into a
//! `testkit` test (the in-memory API server) and an `envtest` test (a real etcd and
//! kube-apiserver from `KUBEBUILDER_ASSETS`), so the testkit is checked against the server it
//! imitates with the very assertions that describe it.
//!
//! The `envtest` variant says `skipped: ...` and passes when `KUBEBUILDER_ASSETS` is not set;
//! when it is set, the binaries must be there (a missing one fails the test). Each variant gets
//! a fresh environment: resourceVersions, CRDs and namespaces are cluster-wide, so sharing one
//! control plane would make scenarios see each other.

use std::future::Future;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ListParams, PostParams};
use kube::runtime::wait::{await_condition, conditions};
use webop_envtest::{Assets, Backend, Environment, EnvironmentBuilder};

/// `scenario!(name, async |backend| { ... })` expands into a module `name` with two tests,
/// `testkit` and `envtest`, that call the closure with [`Backend::Testkit`] and with
/// [`Backend::Real`]. The body starts its own environment (see [`plain`] and [`environment`]).
/// A closure, not a function item, so that rustfmt formats the body.
#[macro_export]
macro_rules! scenario {
    ($name:ident, $body:expr $(,)?) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn testkit() {
                ($body)(::webop_envtest::Backend::Testkit).await
            }

            #[tokio::test]
            async fn envtest() {
                if let Some(backend) = $crate::testkit_common::real_backend() {
                    ($body)(backend).await
                }
            }
        }
    };
}

/// The real control plane of `KUBEBUILDER_ASSETS`, or `None` after saying the test is skipped.
pub fn real_backend() -> Option<Backend> {
    let assets = Assets::from_env();
    if assets.is_none() {
        eprintln!(
            "skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets builds the binaries); \
             the testkit variant of this scenario ran"
        );
    }
    assets.map(Backend::Real)
}

/// A builder for an environment on `backend`, to add CRDs or the controller manager to.
pub fn environment(backend: Backend) -> EnvironmentBuilder {
    Environment::builder().backend(backend)
}

/// An environment on `backend` with nothing installed.
pub async fn plain(backend: Backend) -> Environment {
    environment(backend)
        .start()
        .await
        .expect("the environment starts")
}

/// The bound on anything a scenario waits for. A real control plane acts asynchronously
/// (garbage collection, namespace cleanup, CRD establishment), the testkit at once; the bound
/// only turns a hang into a failure, nothing is timed.
const PATIENCE: Duration = Duration::from_secs(60);

/// Awaits `future`, failing the test if it does not finish within [`PATIENCE`].
pub async fn eventually<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PATIENCE, future)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

/// Waits until the object `name` of `api` is gone (collected, finalized, cleaned up).
pub async fn until_gone<K>(api: &Api<K>, name: &str)
where
    K: kube::Resource + Clone + std::fmt::Debug + serde::de::DeserializeOwned + Send + 'static,
{
    eventually(
        &format!("{name} to be deleted"),
        await_condition(api.clone(), name, |object: Option<&K>| object.is_none()),
    )
    .await
    .expect("the watch of the object works");
}

/// The current resourceVersion of the collection `api` (a list's `metadata.resourceVersion`):
/// where a watch that should see only later changes starts.
pub async fn current_version<K>(api: &Api<K>) -> String
where
    K: kube::Resource + Clone + std::fmt::Debug + serde::de::DeserializeOwned,
{
    api.list(&ListParams::default().limit(1))
        .await
        .expect("the list works")
        .metadata
        .resource_version
        .expect("a list has a resourceVersion")
}

/// Creates `crd` through the API and waits until it is established and its kind is served
/// (at once on the testkit; the real server's controllers take a moment).
pub async fn create_crd(client: &kube::Client, crd: &CustomResourceDefinition) {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    api.create(&PostParams::default(), crd)
        .await
        .expect("the CRD is created");
    until_served(client, crd).await;
}

/// Waits until `crd` is established and its first version is in discovery.
pub async fn until_served(client: &kube::Client, crd: &CustomResourceDefinition) {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let name = crd.metadata.name.clone().expect("a CRD has a name");
    eventually(
        &format!("{name} to be established"),
        await_condition(api, &name, conditions::is_crd_established()),
    )
    .await
    .expect("the watch of the CRD works");
    let group_version = format!("{}/{}", crd.spec.group, crd.spec.versions[0].name);
    eventually(&format!("{group_version} to be served"), async {
        loop {
            let resources = client.list_api_group_resources(&group_version).await;
            if resources.is_ok_and(|list| {
                list.resources
                    .iter()
                    .any(|r| r.name == crd.spec.names.plural)
            }) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

/// The expected value of a known difference (listed in docs/testkit.md): what the real API
/// server answers, or what the testkit answers. The scenario checks each backend's answer, so it
/// fails if either changes (a fixed testkit must then drop the difference).
pub fn known_difference<T>(env: &Environment, real: T, testkit: T) -> T {
    if env.is_real() { real } else { testkit }
}

/// A client that does not retry: kube's kubeconfig clients retry 429, 503 and 504 answers (up to
/// 15 times, honouring `Retry-After`), where a scenario wants to see the answer itself. The
/// testkit's in-process client never retries.
pub async fn client_without_retries(env: &Environment) -> kube::Client {
    let Some(plane) = env.control_plane() else {
        return env.client();
    };
    let kubeconfig = kube::config::Kubeconfig::from_yaml(plane.kubeconfig()).expect("a kubeconfig");
    let mut config = kube::Config::from_custom_kubeconfig(
        kubeconfig,
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .expect("a client configuration");
    config.default_retry = false;
    kube::Client::try_from(config).expect("a client")
}
