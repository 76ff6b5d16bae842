//! Rebuilds webop when a template changes: `include_dir!` embeds `templates/` and
//! `templates-released/` without telling Cargo which files it read.

fn main() {
    println!("cargo::rerun-if-changed=templates");
    println!("cargo::rerun-if-changed=templates-released");
}
