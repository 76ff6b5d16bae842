//! The `scale` subresource of a CRD that declares one: `kubectl scale` and autoscalers read and
//! write replicas through an `autoscaling/v1` Scale. Every test is a `scenario!`: the same body
//! runs on the testkit and on a real kube-apiserver.

use k8s_openapi::api::autoscaling::v1::Scale;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;
use webop::prelude::*;
use webop_envtest::{Backend, Environment};

use crate::testkit_common;

use testkit_common::environment;

/// WorkerSpec asks for a number of workers.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Worker")]
#[subresource(
    status,
    scale(
        spec_path = ".spec.replicas",
        status_path = ".status.replicas",
        selector_path = ".status.selector"
    )
)]
pub struct WorkerSpec {
    #[validate(maximum = 10)]
    pub replicas: i32,
}

/// WorkerStatus reports the workers running.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerStatus {
    pub replicas: i32,
    pub selector: String,
}

/// An environment serving Worker, with one Worker `pool` of 2 replicas and a status.
async fn worker(backend: Backend) -> (Environment, Api<Worker>) {
    let env = environment(backend)
        .crd(Worker::crd())
        .start()
        .await
        .unwrap();
    let api: Api<Worker> = Api::namespaced(env.client(), "default");
    api.create(
        &PostParams::default(),
        &Worker::new("pool", WorkerSpec { replicas: 2 }),
    )
    .await
    .unwrap();
    let status = json!({"status": {"replicas": 2, "selector": "app=pool"}});
    api.patch_status("pool", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();
    (env, api)
}

scenario!(
    the_scale_views_the_replicas_at_the_crd_paths,
    async |backend| {
        let (_env, api) = worker(backend).await;
        let scale: Scale = api.get_scale("pool").await.unwrap();
        assert_eq!(scale.spec.unwrap().replicas, Some(2));
        let status = scale.status.unwrap();
        assert_eq!(status.replicas, 2);
        assert_eq!(status.selector.as_deref(), Some("app=pool"));
    }
);

scenario!(
    scaling_writes_the_spec_through_the_schema_and_bumps_the_generation,
    async |backend| {
        let (_env, api) = worker(backend).await;
        let before = api.get("pool").await.unwrap();

        let patch = json!({"spec": {"replicas": 5}});
        let scale = api
            .patch_scale("pool", &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .unwrap();
        assert_eq!(scale.spec.unwrap().replicas, Some(5));
        let after = api.get("pool").await.unwrap();
        assert_eq!(after.spec.replicas, 5);
        assert_eq!(
            after.metadata.generation,
            before.metadata.generation.map(|g| g + 1)
        );
        assert_eq!(after.status, before.status, "the status is not the scale's");

        // The CRD's schema still holds: maximum 10.
        let refused = async |replicas: i64| {
            let patch = json!({"spec": {"replicas": replicas}});
            match api
                .patch_scale("pool", &PatchParams::default(), &Patch::Merge(&patch))
                .await
            {
                Err(kube::Error::Api(status)) => (status.code, status.message),
                other => panic!("expected an API error, got {other:?}"),
            }
        };
        assert_eq!(
            refused(11).await,
            (
                422,
                "Worker.app.example.com \"pool\" is invalid: spec.replicas: Invalid value: 11: \
                 spec.replicas in body should be less than or equal to 10"
                    .to_string()
            )
        );

        // A negative count is the object's error (at the CRD's specReplicasPath), not the
        // Scale's; a stale resourceVersion is a conflict.
        assert_eq!(
            refused(-1).await,
            (
                422,
                "Worker.app.example.com \"pool\" is invalid: .spec.replicas: Invalid value: -1: \
                 should be a non-negative integer"
                    .to_string()
            )
        );
        let mut stale: Scale = api.get_scale("pool").await.unwrap();
        stale.metadata.resource_version = before.metadata.resource_version.clone();
        let error = api
            .replace_scale("pool", &PostParams::default(), &stale)
            .await
            .unwrap_err();
        assert!(
            matches!(error, kube::Error::Api(ref e) if e.code == 409),
            "{error}"
        );
    }
);

scenario!(discovery_lists_the_scale_subresource, async |backend| {
    let (env, _) = worker(backend).await;
    let client = env.client();
    let resources = client
        .list_api_group_resources("app.example.com/v1")
        .await
        .unwrap();
    let scale = resources
        .resources
        .iter()
        .find(|r| r.name == "workers/scale")
        .expect("workers/scale is listed");
    assert_eq!(scale.kind, "Scale");
    assert_eq!(scale.group.as_deref(), Some("autoscaling"));
});
