//! Version v1 of the API: one `<kind>_types.rs` per kind, re-exported here.
//!
//! This file is yours: add modules of your own here (types that several kinds share:
//! `mod common; pub use common::*;`). `webop create api` adds each new kind of v1 above
//! the `+webop:scaffold:` lines and leaves the rest alone.

mod cronjob_conversion;
mod cronjob_types;
// +webop:scaffold:kindmodules

pub use cronjob_types::*;
// +webop:scaffold:kindexports
