use webop::prelude::*;

/// Fields at the root leave no `spec` to require.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[resource(flatten_spec, spec_required)]
pub struct ThingSpec {
    pub size: i32,
}

fn main() {}
