//! `use webop::prelude::*;` brings everything an API types file needs.

pub use serde::Serialize;
pub use webop_macros::rbac;
