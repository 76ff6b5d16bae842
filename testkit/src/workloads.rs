//! An opt-in simulation of the Deployment controller with nodes that start every Pod at once:
//! what kube-controller-manager and kwok do on a real control plane, reduced to the status a
//! Deployment ends with. The in-memory API server runs no workload controllers otherwise.

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Patch, PatchParams};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, ResourceExt};
use serde_json::{Value, json};

/// The field manager of the simulated Deployment controller's status writes.
pub const DEPLOYMENT_CONTROLLER: &str = "deployment-controller";

/// Runs until the runtime stops: every Deployment whose status does not describe its current
/// spec gets the status of a finished rollout (every replica updated, ready and available, the
/// current generation observed).
pub async fn run_deployment_controller(client: kube::Client) {
    let api = Api::<Deployment>::all(client.clone());
    let mut changes = watcher(api, watcher::Config::default())
        .default_backoff()
        .applied_objects()
        .boxed();
    while let Some(change) = changes.next().await {
        let Ok(deployment) = change else {
            continue;
        };
        let Some(status) = finished_rollout(&deployment) else {
            continue;
        };
        let namespace = deployment.namespace().unwrap_or_default();
        let params = PatchParams {
            field_manager: Some(DEPLOYMENT_CONTROLLER.to_owned()),
            ..PatchParams::default()
        };
        let api = Api::<Deployment>::namespaced(client.clone(), &namespace);
        // A Deployment deleted meanwhile: nothing to do.
        let _ = api
            .patch_status(&deployment.name_any(), &params, &Patch::Merge(&status))
            .await;
    }
}

/// The status patch that finishes `deployment`'s rollout, unless its status says so already.
fn finished_rollout(deployment: &Deployment) -> Option<Value> {
    if deployment.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let json = serde_json::to_value(deployment).ok()?;
    let replicas = json
        .pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let generation = json
        .pointer("/metadata/generation")
        .cloned()
        .unwrap_or(json!(1));
    let status = json!({
        "observedGeneration": generation,
        "replicas": replicas, "updatedReplicas": replicas,
        "readyReplicas": replicas, "availableReplicas": replicas,
        "conditions": [
            {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
            {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"},
        ],
    });
    let current = json.get("status").cloned().unwrap_or(Value::Null);
    let done = [
        "observedGeneration",
        "replicas",
        "updatedReplicas",
        "availableReplicas",
    ]
    .iter()
    .all(|field| current.get(field) == status.get(field));
    (!done).then(|| json!({"status": status}))
}
