use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]

pub struct ThingSpec {
    #[validate(max_length = "ten")]
    pub name: String,
}

fn main() {}
