use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]

pub struct ThingSpec {
    #[schema(list_map_key = ["name"])]
    pub items: Vec<String>,
}

fn main() {}
