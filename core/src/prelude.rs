//! `use webop::prelude::*;` brings everything an API types file needs: the derives
//! (`CustomResource`, `Schema`, and webop's `Serialize`/`Deserialize`, which are serde's with
//! Go's JSON conventions), their traits, and the `#[rbac]`, `#[webhook]` and
//! `#[webhook_configuration]` attributes.

pub use crate::schema::Schema;
pub use serde::de::Deserialize;
pub use serde::ser::Serialize;
pub use webop_macros::{
    CustomResource, Deserialize, Schema, Serialize, rbac, webhook, webhook_configuration,
};
