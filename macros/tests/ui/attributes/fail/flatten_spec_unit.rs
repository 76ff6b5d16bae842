use webop::prelude::*;

/// A unit spec has no fields to put at the root.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", flatten_spec)]
pub struct ThingSpec;

fn main() {}
