//! kwok plays the kubelet of one fake node: pods the scheduler binds to it become Running and
//! Ready without a container runtime, so Deployments report available replicas.

use std::path::Path;

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, PostParams};
use serde_json::json;

use super::Error;

/// The fake node's name.
pub const NODE_NAME: &str = "kwok-node-0";

/// The annotation by which kwok picks the nodes it manages.
const MANAGED: (&str, &str) = ("kwok.x-k8s.io/node", "fake");

/// kwok's flags: manage only the annotated node, through `stages` where given (kwok's own
/// defaults otherwise, which 0.8 no longer has).
pub fn args(kubeconfig: &Path, stages: Option<&Path>) -> Vec<String> {
    let mut args = vec![
        format!("--kubeconfig={}", kubeconfig.display()),
        "--manage-all-nodes=false".to_owned(),
        format!(
            "--manage-nodes-with-annotation-selector={}={}",
            MANAGED.0, MANAGED.1
        ),
        "--cidr=10.0.128.0/17".to_owned(),
        "--node-ip=10.0.127.1".to_owned(),
    ];
    if let Some(stages) = stages {
        args.push(format!("--config={}", stages.display()));
    }
    args
}

/// Registers the fake node, with room for many pods (the chaos test runs 1,400 at its scale).
pub async fn create_node(client: &kube::Client) -> Result<(), Error> {
    let capacity = json!({"cpu": "64", "memory": "256Gi", "pods": "5000"});
    let node: Node = serde_json::from_value(json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": NODE_NAME,
            "annotations": {MANAGED.0: MANAGED.1, "node.alpha.kubernetes.io/ttl": "0"},
            "labels": {
                "kubernetes.io/hostname": NODE_NAME,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "type": "kwok",
            },
        },
        "status": {"allocatable": capacity, "capacity": capacity},
    }))
    .expect("a valid Node");
    Api::<Node>::all(client.clone())
        .create(&PostParams::default(), &node)
        .await
        .map_err(|e| Error::Client(format!("creating the kwok node: {e}")))?;
    Ok(())
}
