use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[x_validation(rule = "self.a <= self.b", reason = "TooBig")]
pub struct ThingSpec {
    pub a: i32,
    pub b: i32,
}

fn main() {}
