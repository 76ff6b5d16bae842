use webop::prelude::*;

/// A kind without spec has no schema to validate.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[x_validation(rule = "self.a > 0")]
pub struct ThingSpec;

fn main() {}
