use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[subresource(status, scale(spec_path = ".spec.size", status_path = ".status.replicas"))]
pub struct ThingSpec {
    pub replicas: i32,
}

fn main() {}

/// Status.
#[derive(Schema, Clone, Debug, Serialize, Deserialize)]
pub struct ThingStatus {
    pub replicas: i32,
}
