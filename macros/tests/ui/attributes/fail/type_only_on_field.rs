use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]

pub struct ThingSpec {
    #[validate(at_most_one_of = ["a", "b"])]
    pub a: i32,
}

fn main() {}
