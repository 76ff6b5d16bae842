//! `webop manifests` reads `#[webhook]` and `#[webhook_configuration]` from source, as
//! controller-gen reads `+kubebuilder:webhook` markers.

use std::path::PathBuf;

use webop_attrs::webhook::{Found, webhooks_in_file};

use crate::rbac::ScanError;
use crate::rbac::scan::each_file;

/// Every `#[webhook]` and `#[webhook_configuration]` of the `*.rs` files under `dirs`; errors
/// name the file, line and column.
pub fn webhooks_in_dirs(dirs: &[PathBuf]) -> Result<Found, ScanError> {
    let mut found = Found::default();
    for in_file in each_file(dirs, webhooks_in_file)? {
        found.webhooks.extend(in_file.webhooks);
        found.configurations.extend(in_file.configurations);
    }
    Ok(found)
}
