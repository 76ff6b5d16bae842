//! `webop manifests` reads `#[webhook]` and `#[webhook_configuration]` from source, as
//! controller-gen reads `+kubebuilder:webhook` markers.

use std::path::PathBuf;

use webop_attrs::webhook::{WebhookAttr, WebhookConfigurationAttr, webhooks_in_file};

use super::{Configuration, Webhook};
use crate::rbac::ScanError;
use crate::rbac::scan::each_file;

/// The webhooks and configurations of a source tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub webhooks: Vec<Webhook>,
    pub configurations: Vec<Configuration>,
}

/// Every `#[webhook]` and `#[webhook_configuration]` of the `*.rs` files under `dirs`; errors
/// name the file, line and column.
pub fn webhooks_in_dirs(dirs: &[PathBuf]) -> Result<Found, ScanError> {
    let mut found = Found::default();
    for in_file in each_file(dirs, webhooks_in_file)? {
        found
            .webhooks
            .extend(in_file.webhooks.into_iter().map(webhook_of));
        found
            .configurations
            .extend(in_file.configurations.into_iter().map(configuration_of));
    }
    Ok(found)
}

fn webhook_of(attr: WebhookAttr) -> Webhook {
    Webhook {
        name: attr.name,
        mutating: attr.mutating,
        failure_policy: attr.failure_policy,
        match_policy: attr.match_policy,
        side_effects: attr.side_effects,
        timeout_seconds: attr.timeout_seconds,
        groups: attr.groups,
        resources: attr.resources,
        verbs: attr.verbs,
        versions: attr.versions,
        path: attr.path,
        url: attr.url,
        service_name: attr.service_name,
        service_namespace: attr.service_namespace,
        service_port: attr.service_port,
        admission_review_versions: attr.admission_review_versions,
        reinvocation_policy: attr.reinvocation_policy,
    }
}

fn configuration_of(attr: WebhookConfigurationAttr) -> Configuration {
    Configuration {
        mutating: attr.mutating,
        name: attr.name,
    }
}
