// controller-tools' testdata/wrong_title_format: `+kubebuilder:title=123`.
use webop::prelude::*;

/// Spec.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
pub struct ThingSpec {
    #[schema(title = 123)]
    pub a: i32,
}

fn main() {}
