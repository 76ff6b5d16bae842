use webop::prelude::*;

/// A root field cannot be called `metadata`: the root has one.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", flatten_spec)]
pub struct ThingSpec {
    pub size: i32,
    #[serde(rename = "metadata")]
    pub meta: String,
}

fn main() {}
