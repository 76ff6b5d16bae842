// `#[root(...)]` takes CEL rules only, each checked as `#[x_validation]` checks its own: an
// unknown key and a rule without `rule` are both reported in one compile.
use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[root(x_validation(message = "names are short"))]
#[root(x_validations(rule = "self.metadata.name.size() <= 20"))]
pub struct ThingSpec {
    pub a: i32,
}

fn main() {}
