//! The WebApp project and the `create webhook` / `create api` arguments the `create_webhook*`
//! tests share.

use crate::support::{create_webapp, init_webapp, project_dir};

pub const WEBHOOK: &[&str] = &[
    "create",
    "webhook",
    "--group",
    "app",
    "--version",
    "v1",
    "--kind",
    "WebApp",
];
pub const V2: &[&str] = &[
    "create",
    "api",
    "--group",
    "app",
    "--version",
    "v2",
    "--kind",
    "WebApp",
    "--controller=false",
];

pub fn with(base: &[&'static str], more: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(more).copied().collect()
}

/// The WebApp project after `init` and `create api`.
pub fn webapp() -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    (temp, dir)
}
