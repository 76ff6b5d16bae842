use webop::prelude::*;

/// Every bad attribute of a kind is reported by one compile, each at its attribute.
#[derive(CustomResource, Clone, Debug, Serialize, Deserialize)]
#[resource(group = "app.example.com", version = "v1", kind = "Thing")]
#[printcolumn(name = "Size", type = "int", json_path = ".spec.size")]
pub struct ThingSpec {
    #[validate(maximun = 3)]
    pub replicas: i32,
    #[validate(minimum = 1)]
    pub image: String,
    #[schema(title = 123, default = "three")]
    pub size: i32,
}

fn main() {}
