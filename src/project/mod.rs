//! The `PROJECT` file: what `webop init` and `webop create api` recorded about a project.
//!
//! The format is kubebuilder's PROJECT file (version "3") with the layout `webop.dev/v1`, so a
//! kubebuilder user reads it at a glance. webop writes it from `templates/PROJECT` (it is a
//! tool-owned file, re-rendered by every command) and reads it back here.

mod controllers;
mod core_groups;
mod delete_webhook;
mod edit;
mod external_webhook;
mod foreign_kind;
pub mod layout;
mod new_resource;
mod new_webhook;
mod plugins;
pub mod validate;

pub use controllers::{NamedController, controller_file, reconciler_stem};
pub use core_groups::{CORE_GROUPS, CoreGroup, core_group};
pub use delete_webhook::{DeleteWebhookRefused, WebhookTypes};
pub use edit::Refused as EditRefused;
pub use new_resource::{NewResource, Refused};
pub use new_webhook::{NewWebhook, WebhookRefused};
pub use plugins::{DeployImage, DeployImageOptions, DeployImageResource, Enabled, Plugins};

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file name, at the root of every webop project.
pub const FILE_NAME: &str = "PROJECT";
/// The layout a webop project declares (kubebuilder's `layout:`).
pub const LAYOUT: &str = "webop.dev/v1";
/// The PROJECT format version (kubebuilder's `version: "3"`).
pub const FORMAT_VERSION: &str = "3";
/// The plugin key under which `create api --image` records its options, as kubebuilder's
/// `deploy-image.go.kubebuilder.io/v1-alpha` does.
pub const DEPLOY_IMAGE_PLUGIN: &str = "deploy-image.webop.dev/v1-alpha";

/// The contents of a `PROJECT` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Project {
    /// The webop version that ran `init`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cli_version: Option<String>,
    /// The domain of every API group (`app` + `example.com` → `app.example.com`).
    pub domain: String,
    /// Always `[webop.dev/v1]`.
    pub layout: Vec<String>,
    /// kubebuilder's multigroup layout (`multigroup: true`): each group's API modules under
    /// `api/src/<group>/<version>/` and its controllers under `src/controller/<group>/`, so two
    /// groups may have kinds of the same name. Set by `init --multigroup` or `edit --multigroup`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multigroup: bool,
    /// The manager watches and is granted only its own namespace (Role and RoleBinding,
    /// `WATCH_NAMESPACE`), as kubebuilder's `namespaced: true`; set by `webop edit --namespaced`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub namespaced: bool,
    /// Options of plugins; today only `create api --image`.
    #[serde(default, skip_serializing_if = "Plugins::is_empty")]
    pub plugins: Plugins,
    /// The project name: a DNS-1123 label, the root package's name.
    pub project_name: String,
    /// Where the code lives (`github.com/example/webapp-operator`), if given to `init`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// One entry per kind and version, in the order they were created.
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// The format version, `"3"`.
    pub version: String,
}

/// One `create api`: a kind in a group and version, with or without its API type and controller.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Resource {
    /// Present when the API type (and so the CRD) is scaffolded by this project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<Api>,
    /// Whether the project has the kind's one unnamed controller (`controller: true`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub controller: bool,
    /// The kind's named controllers (`create api --controller-name`), in place of `controller`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<NamedController>,
    /// A kind of Kubernetes' own API (kubebuilder's core types: `apps/v1 Deployment`), which the
    /// project has a controller or webhooks for: k8s-openapi's type, no API type of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub core: bool,
    /// The group's domain; empty for Kubernetes' groups that have none (`core`, `apps`).
    #[serde(default)]
    pub domain: String,
    /// An API the project uses but does not own (kubebuilder's external APIs, from
    /// `webop import crd --external`): its types, but no CRD, roles or sample.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
    pub group: String,
    pub kind: String,
    /// The Rust path of the module holding the type (`webapp_operator_api::v1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Set only when `--plural` overrode the derived plural.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plural: Option<String>,
    pub version: String,
    /// The webhooks `create webhook` scaffolded for this kind and version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhooks: Option<Webhooks>,
}

/// The `webhooks:` of a [`Resource`], as kubebuilder records them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Webhooks {
    /// A conversion webhook, with this version as the hub.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conversion: bool,
    /// A defaulting (mutating) admission webhook.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defaulting: bool,
    /// Where the defaulting webhook is served, when not at controller-runtime's path
    /// (`create webhook --defaulting-path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defaulting_path: Option<String>,
    /// The versions that convert to and from the hub.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spoke: Vec<String>,
    /// A validating admission webhook.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub validation: bool,
    /// Where the validating webhook is served, when not at controller-runtime's path
    /// (`create webhook --validation-path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation_path: Option<String>,
    /// The admissionregistration API version of the webhooks: always `v1`.
    pub webhook_version: String,
}

impl Webhooks {
    /// Whether the kind has a defaulting or validating webhook: the ones its webhook module
    /// (`src/webhook/<version>/<kind>_webhook.rs`) implements.
    pub fn admission(&self) -> bool {
        self.defaulting || self.validation
    }
}

/// The API part of a [`Resource`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Api {
    /// Always `v1` (apiextensions.k8s.io/v1).
    pub crd_version: String,
    /// Whether the kind is namespaced (`false`: cluster-scoped).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub namespaced: bool,
}

/// Why a PROJECT file could not be found or read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "not inside a webop project: no {FILE_NAME} file in {dir} or any parent directory (run `webop init` first)"
    )]
    NotFound { dir: PathBuf },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid PROJECT file: {message}")]
    Parse { path: PathBuf, message: String },
    #[error(
        "{path} is not a webop project: its layout is {found:?}, webop needs {LAYOUT:?} (a kubebuilder project cannot be driven by webop)"
    )]
    Layout { path: PathBuf, found: Vec<String> },
}

impl Project {
    /// A new project as `init` records it.
    pub fn new(project_name: &str, domain: &str, repo: Option<&str>) -> Self {
        Project {
            cli_version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            domain: domain.to_owned(),
            layout: vec![LAYOUT.to_owned()],
            multigroup: false,
            namespaced: false,
            plugins: Plugins::default(),
            project_name: project_name.to_owned(),
            repo: repo.map(str::to_owned),
            resources: Vec::new(),
            version: FORMAT_VERSION.to_owned(),
        }
    }

    /// Finds the PROJECT file in `dir` or the nearest parent and reads it.
    /// Returns the project root (the directory holding PROJECT) and the project.
    pub fn find(dir: &Path) -> Result<(PathBuf, Project), Error> {
        let root = dir
            .ancestors()
            .find(|d| d.join(FILE_NAME).is_file())
            .ok_or_else(|| Error::NotFound {
                dir: dir.to_owned(),
            })?;
        Ok((root.to_owned(), Project::load(root)?))
    }

    /// Reads `root/PROJECT`.
    pub fn load(root: &Path) -> Result<Project, Error> {
        let path = root.join(FILE_NAME);
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        Project::parse(&text).map_err(|message| match message {
            ParseError::Yaml(message) => Error::Parse { path, message },
            ParseError::Layout(found) => Error::Layout { path, found },
        })
    }

    /// Parses the text of a PROJECT file.
    fn parse(text: &str) -> Result<Project, ParseError> {
        // Read the layout first so that a kubebuilder (Go) PROJECT gets the helpful error rather
        // than a complaint about the fields webop does not know.
        #[derive(Deserialize)]
        struct LayoutOnly {
            #[serde(default)]
            layout: Vec<String>,
        }
        let layout: LayoutOnly =
            serde_saphyr::from_str(text).map_err(|e| ParseError::Yaml(e.to_string()))?;
        if !layout.layout.iter().any(|l| l == LAYOUT) {
            return Err(ParseError::Layout(layout.layout));
        }
        serde_saphyr::from_str(text).map_err(|e| ParseError::Yaml(e.to_string()))
    }

    /// The root package's name (the project name).
    pub fn package_name(&self) -> &str {
        &self.project_name
    }

    /// The root crate's name as Rust code spells it (`webapp_operator`).
    pub fn crate_name(&self) -> String {
        self.project_name.replace('-', "_")
    }

    /// The API package's name (`webapp-operator-api`).
    pub fn api_package_name(&self) -> String {
        format!("{}-api", self.project_name)
    }

    /// The API crate's name as Rust code spells it (`webapp_operator_api`).
    pub fn api_crate_name(&self) -> String {
        self.api_package_name().replace('-', "_")
    }

    /// The Rust path of a version's module (PROJECT's `path:`): `webapp_operator_api::v1`, or
    /// `..._api::ship::v1` in a multigroup project.
    pub fn api_module_path(&self, group: &str, version: &str) -> String {
        let module = layout::version_module(group, version, self.multigroup);
        format!("{}::{module}", self.api_crate_name())
    }

    /// The resource of `kind` in `group`/`version`, if the project has it.
    pub fn resource(&self, group: &str, version: &str, kind: &str) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.kind == kind)
    }

    /// The `--image` options recorded for `resource`, if it was created with `--image`.
    pub fn deploy_image_options(&self, resource: &Resource) -> Option<&DeployImageOptions> {
        let plugin = self.plugins.deploy_image.as_ref()?;
        plugin
            .resources
            .iter()
            .find(|r| {
                r.group == resource.group
                    && r.version == resource.version
                    && r.kind == resource.kind
            })
            .map(|r| &r.options)
    }

    /// Adds `resource` (replacing an entry for the same group, version and kind) and its
    /// `--image` options (replacing or removing the old ones).
    pub fn upsert_resource(&mut self, resource: Resource, image: Option<DeployImageOptions>) {
        let same = |group: &str, version: &str, kind: &str| {
            group == resource.group && version == resource.version && kind == resource.kind
        };
        match self
            .resources
            .iter_mut()
            .find(|r| same(&r.group, &r.version, &r.kind))
        {
            Some(existing) => *existing = resource.clone(),
            None => self.resources.push(resource.clone()),
        }
        let plugin = self
            .plugins
            .deploy_image
            .get_or_insert_with(Default::default);
        plugin
            .resources
            .retain(|r| !same(&r.group, &r.version, &r.kind));
        if let Some(options) = image {
            plugin.resources.push(DeployImageResource {
                domain: resource.domain.clone(),
                group: resource.group.clone(),
                kind: resource.kind.clone(),
                options,
                version: resource.version.clone(),
            });
        }
        if plugin.resources.is_empty() {
            self.plugins.deploy_image = None;
        }
    }
}

impl Resource {
    /// The full API group: `app` + `example.com` → `app.example.com` (`""` for Kubernetes'
    /// `core` group).
    pub fn qualified_group(&self) -> String {
        if let Some(core) = self.core_group() {
            core.api_group()
        } else if self.domain.is_empty() {
            self.group.clone()
        } else {
            format!("{}.{}", self.group, self.domain)
        }
    }

    /// Whether the kind has admission webhooks that this project serves: a kind of its own, one
    /// of Kubernetes' (`core: true`) or an external one's (`external: true`).
    pub fn admission_webhooks(&self) -> bool {
        (self.api.is_some() || self.foreign())
            && self.webhooks.as_ref().is_some_and(|w| w.admission())
    }

    /// The Kubernetes API group of a core kind.
    pub fn core_group(&self) -> Option<&'static CoreGroup> {
        self.core.then(|| core_group(&self.group)).flatten()
    }

    /// A kind whose type the project does not scaffold: Kubernetes' own, or an external API's.
    pub fn foreign(&self) -> bool {
        self.core || self.external
    }

    /// The plural resource name: `--plural` if it was given, else derived from the kind.
    pub fn plural(&self) -> String {
        self.plural
            .clone()
            .unwrap_or_else(|| crate::names::plural(&self.kind))
    }
}

enum ParseError {
    Yaml(String),
    Layout(Vec<String>),
}

#[cfg(test)]
mod tests;
