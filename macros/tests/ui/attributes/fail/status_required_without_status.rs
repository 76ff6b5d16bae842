use webop::prelude::*;

/// A kind without a status cannot require one.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing", status_required)]
pub struct ThingSpec {
    pub size: i32,
}

fn main() {}
