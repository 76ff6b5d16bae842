// controller-tools' testdata/wrong_annotation_format: annotations written `key:value`.
use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[metadata(annotations = ["api-approved.kubernetes.io:https://github.com/kubernetes-sigs/controller-tools"])]
pub struct ThingSpec {
    pub a: i32,
}

fn main() {}
