use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[validate(at_most_one_of = ["git", "oci"])]
pub struct ThingSpec {
    pub git: Option<String>,
}

fn main() {}
