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

/// `--image`, `--port`, `--run-as-user`; numbers are strings, as kubebuilder writes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeployImageOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_port: Option<String>,
    pub image: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_as_user: Option<String>,
}
