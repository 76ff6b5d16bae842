//! A CRD whose spec embeds k8s-openapi types: the derive inlines their full schemas, the field's
//! doc and attributes win over the type's, and optionality follows the Rust field.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::DeploymentStrategy;
use k8s_openapi::api::core::v1::{
    Affinity, EnvVar, LocalObjectReference, PodTemplateSpec, ResourceRequirements,
    SecretKeySelector, ServicePort, Toleration, Volume,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde_json::{Value, json};
use webop::prelude::*;

/// WorkerSpec runs pods.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "batch.example.com", version = "v1", kind = "Worker")]
#[serde(rename_all = "camelCase")]
pub struct WorkerSpec {
    /// template of the worker pods.
    pub template: PodTemplateSpec,
    /// resources of each worker.
    pub resources: Option<ResourceRequirements>,
    /// env of the worker container.
    #[validate(max_items = 20)]
    #[serde(default)]
    pub env: Vec<EnvVar>,
    /// tolerations of the pods.
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    /// affinity of the pods.
    pub affinity: Option<Affinity>,
    /// selector of the pods.
    pub selector: LabelSelector,
    /// serviceAccount to run as.
    pub service_account: Option<LocalObjectReference>,
    /// ports to expose.
    #[schema(list_type = "map", list_map_key = ["port", "protocol"])]
    #[serde(default)]
    pub ports: Vec<ServicePort>,
    /// volumes of the pods.
    #[serde(default)]
    pub volumes: Vec<Volume>,
    /// strategy of updates.
    pub strategy: Option<DeploymentStrategy>,
    /// secretRef holds the token.
    pub secret_ref: SecretKeySelector,
    /// labels of the pods.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

fn spec() -> Value {
    let crd = serde_json::to_value(Worker::crd()).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone()
}

#[test]
fn required_follows_the_rust_fields() {
    assert_eq!(
        spec()["required"],
        json!(["secretRef", "selector", "template"])
    );
}

#[test]
fn embedded_types_are_inlined_under_the_fields_doc() {
    let spec = spec();
    let properties = &spec["properties"];
    let template = &properties["template"];
    assert_eq!(template["description"], "template of the worker pods.");
    let containers = &template["properties"]["spec"]["properties"]["containers"];
    assert_eq!(containers["x-kubernetes-list-type"], "map");
    assert_eq!(
        containers["items"]["properties"]["ports"]["x-kubernetes-list-map-keys"],
        json!(["containerPort", "protocol"])
    );

    let env = &properties["env"];
    assert_eq!(env["description"], "env of the worker container.");
    assert_eq!(env["maxItems"], 20);
    assert_eq!(env["items"]["required"], json!(["name"]));

    let ports = &properties["ports"];
    assert_eq!(ports["x-kubernetes-list-type"], "map");
    assert_eq!(
        ports["items"]["properties"]["targetPort"]["x-kubernetes-int-or-string"],
        true
    );

    assert_eq!(
        properties["resources"]["properties"]["limits"]["additionalProperties"]["x-kubernetes-int-or-string"],
        true
    );
    assert_eq!(properties["selector"]["x-kubernetes-map-type"], "atomic");
    assert_eq!(
        properties["serviceAccount"]["x-kubernetes-map-type"],
        "atomic"
    );
    assert_eq!(properties["secretRef"]["required"], json!(["key"]));
    assert_eq!(
        properties["strategy"]["properties"]["rollingUpdate"]["properties"]["maxSurge"]["anyOf"],
        json!([{ "type": "integer" }, { "type": "string" }])
    );
    assert_eq!(
        properties["volumes"]["items"]["properties"]["configMap"]["x-kubernetes-map-type"],
        "atomic"
    );
    assert!(
        properties["affinity"]["properties"]["nodeAffinity"]["properties"]
            ["requiredDuringSchedulingIgnoredDuringExecution"]["properties"]["nodeSelectorTerms"]
            .is_object()
    );
}
