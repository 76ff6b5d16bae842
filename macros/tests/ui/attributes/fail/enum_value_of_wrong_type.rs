use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]

pub struct ThingSpec {
    #[validate(enum = ["one", "two"])]
    pub count: i32,
}

fn main() {}
