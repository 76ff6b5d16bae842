//! Naming rules shared by the CLI and CRD assembly (kept in `webop-attrs`, which the derives use
//! at compile time).

pub use webop_attrs::names::{crd_default_plural, plural, singular};
