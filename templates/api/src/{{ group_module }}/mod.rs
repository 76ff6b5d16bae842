//! The {{ group }} group of the API: one module per version, `<version>/mod.rs`.
//!
//! This file is yours: `webop create api` adds each new version of {{ group }} above the
//! `+webop:scaffold:` line and leaves the rest alone.
{% for v in group_versions %}
pub mod {{ v }};
{%- endfor %}
// +webop:scaffold:groupversions
