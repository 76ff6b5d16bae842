use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[validate(required)]
pub struct ThingSpec {
    pub a: i32,
}

fn main() {}
