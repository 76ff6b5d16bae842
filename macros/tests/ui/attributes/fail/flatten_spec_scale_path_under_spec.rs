use webop::prelude::*;

/// With the spec's fields at the root, the scale spec path is `.replicas`.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", flatten_spec)]
#[subresource(status, scale(spec_path = ".spec.replicas", status_path = ".status.replicas"))]
pub struct ThingSpec {
    pub replicas: i32,
}

/// Status.
#[derive(Schema, Clone, Debug, Serialize, Deserialize)]
pub struct ThingStatus {
    pub replicas: i32,
}

fn main() {}
