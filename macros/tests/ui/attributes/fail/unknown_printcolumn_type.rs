use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[printcolumn(name = "Size", type = "int", json_path = ".spec.size")]
pub struct ThingSpec {
    pub size: i32,
}

fn main() {}
