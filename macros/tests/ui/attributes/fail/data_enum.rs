use webop::prelude::*;

#[derive(Schema, Clone, Debug, Serialize, Deserialize)]
pub enum Source {
    Git { url: String },
    Image(String),
}

fn main() {}
