use webop::prelude::*;

fn tuning() -> Tuning {
    Tuning { level: 7 }
}

#[derive(Schema, Debug, Deserialize)]
#[serde(default = "tuning")]
pub struct Tuning {
    pub level: i32,
}

fn main() {}
