use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
pub struct ThingSpec {
    #[schema(default = "three")]
    pub replicas: i32,
}

fn main() {}
