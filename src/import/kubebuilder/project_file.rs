//! kubebuilder's PROJECT file, as the import reads it, and what becomes of its plugins.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Issue;

/// The parts of kubebuilder's PROJECT file the import reads (others are left alone).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectFile {
    #[serde(default)]
    pub domain: String,
    #[serde(default)]
    pub layout: Vec<String>,
    #[serde(default)]
    pub multigroup: bool,
    /// The plugins' options by plugin key (`helm.kubebuilder.io/v2-alpha`, ...).
    #[serde(default)]
    pub plugins: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub project_name: Option<String>,
    #[serde(default)]
    pub repo: Option<String>,
    #[serde(default)]
    pub resources: Vec<Resource>,
}

/// One of PROJECT's `controllers:`.
#[derive(Clone, Debug, Deserialize)]
pub struct NamedController {
    pub name: String,
}

/// One resource of PROJECT.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    #[serde(default)]
    pub api: Option<serde_json::Value>,
    #[serde(default)]
    pub controller: bool,
    /// Named controllers (kubebuilder's `create api --controller-name`), in place of
    /// `controller: true`.
    #[serde(default)]
    pub controllers: Vec<NamedController>,
    #[serde(default)]
    pub core: bool,
    #[serde(default)]
    pub domain: String,
    #[serde(default)]
    pub external: bool,
    pub group: String,
    pub kind: String,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub plural: Option<String>,
    pub version: String,
    #[serde(default)]
    pub webhooks: Option<Webhooks>,
}

impl Resource {
    /// The kind's controllers: their names, `None` for `controller: true`.
    pub fn controller_names(&self) -> Vec<Option<&str>> {
        if !self.controllers.is_empty() {
            self.controllers
                .iter()
                .map(|c| Some(c.name.as_str()))
                .collect()
        } else if self.controller {
            vec![None]
        } else {
            Vec::new()
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhooks {
    #[serde(default)]
    pub defaulting: bool,
    #[serde(default)]
    pub validation: bool,
    #[serde(default)]
    pub conversion: bool,
    #[serde(default)]
    pub spoke: Vec<String>,
    #[serde(default)]
    pub defaulting_path: Option<String>,
    #[serde(default)]
    pub validation_path: Option<String>,
}

/// What becomes of PROJECT's entries that are not the project's own kinds: Kubernetes' kinds
/// with a controller or webhooks are imported (notes), the others are listed.
pub fn resource_notes(project: &ProjectFile, notes: &mut Vec<Issue>, issues: &mut Vec<Issue>) {
    for resource in &project.resources {
        let shown = format!("{} {}/{}", resource.kind, resource.group, resource.version);
        if resource.external
            && resource.api.is_none()
            && (resource.controller || resource.webhooks.is_some())
        {
            let (with, then) = match (resource.controller, resource.webhooks.is_some()) {
                (true, true) => (
                    "a controller and webhooks",
                    "`webop create api --resource=false` and `webop create webhook`",
                ),
                (true, false) => ("a controller", "`webop create api --resource=false`"),
                _ => ("webhooks", "`webop create webhook`"),
            };
            notes.push(Issue {
                file: "PROJECT".into(),
                line: 0,
                what: format!(
                    "{shown}: an external kind with {with}: `webop import crd --external` of a CRD \
                     that keeps its spec and status whole (the Go project has no CRD of {}; \
                     `webop import crd --external --force` of its operator's types them), then \
                     {then}",
                    resource.kind,
                ),
            });
        } else if resource.core && (resource.controller || resource.webhooks.is_some()) {
            let what = match (resource.controller, resource.webhooks.is_some()) {
                (true, true) => {
                    "its controller and webhooks are `webop create api --resource=false` and `webop create webhook`"
                }
                (true, false) => "its controller is `webop create api --resource=false`",
                _ => "its webhooks are `webop create webhook`",
            };
            notes.push(Issue {
                file: "PROJECT".into(),
                line: 0,
                what: format!("{shown}: a Kubernetes kind: {what} on k8s-openapi's type"),
            });
        } else if resource.api.is_none() || resource.external || resource.core {
            issues.push(Issue {
                file: "PROJECT".into(),
                line: 0,
                what: format!(
                    "{shown}: {} kind: not imported (webop imports the kinds a project owns, and controllers and webhooks of Kubernetes' kinds; `webop import crd --external` takes another operator's CRD)",
                    if resource.core { "a core" } else { "an external" }
                ),
            });
        }
    }
}

/// What becomes of PROJECT's plugins: helm, grafana and autoupdate are webop's `edit --plugins`
/// (notes); others are listed.
pub fn plugin_notes(project: &ProjectFile, notes: &mut Vec<Issue>, issues: &mut Vec<Issue>) {
    for key in project.plugins.keys() {
        let at = |what: String| Issue {
            file: "PROJECT".into(),
            line: 0,
            what,
        };
        match key.split('.').next().unwrap_or_default() {
            name @ ("helm" | "grafana" | "autoupdate") => {
                notes.push(at(format!("plugin {key}: `webop edit --plugins {name}`")))
            }
            // Its kinds are `create api --image` (`deploy_image::notes`).
            _ if key == "deploy-image.go.kubebuilder.io/v1-alpha" => {}
            _ => issues.push(at(format!(
                "plugin {key}: webop has no such plugin: left out"
            ))),
        }
    }
}
