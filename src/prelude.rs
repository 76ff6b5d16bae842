//! `use webop::prelude::*;` brings everything an API types file needs: the derives
//! (`CustomResource`, `Schema`, and webop's `Serialize`/`Deserialize`, which are serde's with
//! Go's JSON conventions) and the `#[rbac]` attribute.

pub use webop_macros::{CustomResource, Deserialize, Schema, Serialize, rbac};
