use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", kind = "Thing")]
pub struct ThingSpec {
    pub a: i32,
}

fn main() {}
