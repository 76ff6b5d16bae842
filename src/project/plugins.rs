//! The `plugins:` map of a PROJECT file: the options each plugin recorded, under the plugin
//! keys kubebuilder's own plugins use (with webop's domain).

use serde::{Deserialize, Serialize};

/// The `plugins:` map of a PROJECT file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plugins {
    /// `webop edit --plugins autoupdate`: `.github/workflows/auto_update.yml` runs
    /// `webop upgrade` on a schedule.
    #[serde(
        rename = "autoupdate.webop.dev/v1-alpha",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub autoupdate: Option<Enabled>,
    #[serde(
        rename = "deploy-image.webop.dev/v1-alpha",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub deploy_image: Option<DeployImage>,
    /// `webop edit --plugins helm`: every command keeps `dist/chart/` in step with `config/`.
    #[serde(
        rename = "helm.webop.dev/v1-alpha",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub helm: Option<Enabled>,
    /// `webop edit --plugins grafana`: `grafana/` holds the manager's dashboards.
    #[serde(
        rename = "grafana.webop.dev/v1-alpha",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub grafana: Option<Enabled>,
}

impl Plugins {
    pub(super) fn is_empty(&self) -> bool {
        self.deploy_image.is_none()
            && self.helm.is_none()
            && self.grafana.is_none()
            && self.autoupdate.is_none()
    }
}

/// A plugin with no options: recorded as `{}` once enabled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enabled {}

/// What `create api --image` recorded, per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployImage {
    pub resources: Vec<DeployImageResource>,
}

/// The `--image` options of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployImageResource {
    pub domain: String,
    pub group: String,
    pub kind: String,
    pub options: DeployImageOptions,
    pub version: String,
}

/// `--image`, `--port`, `--run-as-user`, `--container-command` (its arguments joined by commas)
/// under kubebuilder's keys; numbers are strings, as kubebuilder writes them.
/// `--kubebuilder-spec` is webop's own `kubebuilderSpec: true`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeployImageOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_port: Option<String>,
    pub image: String,
    /// The kind is kubebuilder's deploy-image kind: spec `size` and `containerPort`, the image
    /// from these options (the manager's `<KIND>_IMAGE`), a Deployment alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kubebuilder_spec: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_user: Option<String>,
}

impl DeployImageOptions {
    /// The container's command: `containerCommand` split at its commas, as kubebuilder splits
    /// it; empty without one.
    pub fn command(&self) -> Vec<&str> {
        self.container_command
            .as_deref()
            .map_or_else(Vec::new, |command| command.split(',').collect())
    }
}
