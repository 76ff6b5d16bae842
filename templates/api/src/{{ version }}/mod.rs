//! Version {{ version }} of the API: one `<kind>_types.rs` per kind, re-exported here.
//!
//! This file is yours: add modules of your own here (types that several kinds share:
//! `mod common; pub use common::*;`). `webop create api` adds each new kind of {{ version }} above
//! the `+webop:scaffold:` lines and leaves the rest alone.
{% for k in kinds %}
mod {{ k.kind_lower }}_types;
{%- endfor %}
// +webop:scaffold:kindmodules
{% for k in kinds %}
pub use {{ k.kind_lower }}_types::*;
{%- endfor %}
// +webop:scaffold:kindexports
