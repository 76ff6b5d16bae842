use webop::prelude::*;

/// A kind without spec cannot require one.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", spec_required)]
pub struct ThingSpec;

fn main() {}
