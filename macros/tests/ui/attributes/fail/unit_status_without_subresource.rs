use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", status = "()")]
pub struct ThingSpec {
    pub a: i32,
}

fn main() {}
