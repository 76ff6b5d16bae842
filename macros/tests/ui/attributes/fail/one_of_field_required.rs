use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[validate(exactly_one_of = ["git", "image"])]
pub struct ThingSpec {
    pub git: Option<String>,
    pub image: String,
}

fn main() {}
