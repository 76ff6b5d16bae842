//! The project-wide variables every template sees, and the context of one render: the
//! project's variables overlaid with those of its scope (group, version or kind).

use serde::Serialize;

use super::group_vars::ModuleGroup;
use super::{ResourceVars, Scoped, VersionVars, api_versions, by_group, webhook_versions};
use super::{repository_url, version_order};
use crate::project::layout;
use crate::project::{DeployImageResource, Project};

/// Options of `init` that shape user-owned files only; tool-owned templates must not read them,
/// since later commands re-render those from PROJECT alone.
#[derive(Clone, Debug, Default, Serialize)]
pub struct InitOptions {
    /// Copyright holder named in the generated README.
    pub owner: String,
    /// `apache2` or `none`.
    pub license: String,
    /// The webop source `.cargo/config.toml` patches in, if known.
    pub webop_path: Option<String>,
}

/// The project-wide variables every template sees.
#[derive(Clone, Debug, Serialize)]
pub struct ProjectVars<'a> {
    /// `<version module>::<Kind>::crd_version()` of every kind with an API, for `crdgen`.
    crd_versions: Vec<String>,
    /// The multigroup layout (PROJECT `multigroup: true`).
    multigroup: bool,
    /// The modules of the API crate's root: its versions, or its groups in a multigroup project.
    api_modules: Vec<String>,
    /// The kinds with a controller by group module (one group, named `""`, when single-group).
    controller_groups: Vec<ModuleGroup<ResourceVars<'a>>>,
    /// The versions with a webhook module by group module (one group `""` when single-group).
    webhook_groups: Vec<ModuleGroup<VersionVars<'a>>>,
    webop_version: &'static str,
    cli_version: Option<&'a str>,
    layout: &'static str,
    deploy_image_plugin: &'static str,
    /// PROJECT records `edit --plugins helm` / `grafana` / `autoupdate`.
    helm_plugin: bool,
    grafana_plugin: bool,
    autoupdate_plugin: bool,
    project_name: &'a str,
    crate_name: String,
    api_package: String,
    api_crate: String,
    domain: &'a str,
    repo: Option<&'a str>,
    repository_url: Option<String>,
    namespace: String,
    /// The manager is namespace-scoped (PROJECT `namespaced: true`).
    namespaced_manager: bool,
    resources: Vec<ResourceVars<'a>>,
    api_resources: Vec<ResourceVars<'a>>,
    /// The controllers of the kinds (a kind's named ones each), in module order.
    controllers: Vec<ResourceVars<'a>>,
    versions: Vec<VersionVars<'a>>,
    /// Whether any kind has a webhook (of any type): the webhook server, its Service and
    /// certificate are scaffolded.
    webhooks: bool,
    /// Whether any kind has a defaulting or validating webhook (`config/webhook/manifests.yaml`
    /// then exists).
    admission_webhooks: bool,
    /// The versions with a kind whose webhook module exists, in module order.
    webhook_versions: Vec<VersionVars<'a>>,
    /// The kinds with a defaulting or validating webhook, in version and module order.
    webhook_kinds: Vec<ResourceVars<'a>>,
    /// The hubs of conversion webhooks.
    conversions: Vec<ResourceVars<'a>>,
    /// The sections of `config/default/kustomization.yaml` that `create webhook` uncomments,
    /// commented out, by name.
    webhook_blocks: std::collections::BTreeMap<&'static str, String>,
    deploy_image_resources: Option<&'a [DeployImageResource]>,
    /// `init`'s options, for the user-owned files it writes.
    #[serde(flatten)]
    init: Option<&'a InitOptions>,
}

impl<'a> ProjectVars<'a> {
    pub fn new(project: &'a Project, init: Option<&'a InitOptions>) -> Self {
        let resources: Vec<ResourceVars> = project
            .resources
            .iter()
            .map(|r| ResourceVars::new(project, r))
            .collect();
        let mut controllers: Vec<ResourceVars> = project
            .resources
            .iter()
            .flat_map(|r| ResourceVars::controllers(project, r))
            .collect();
        controllers.sort_by(|a, b| {
            version_order(&a.group_key(project), &b.group_key(project))
                .then_with(|| version_order(&a.controller_file, &b.controller_file))
        });
        let versions: Vec<VersionVars> = api_versions(project)
            .into_iter()
            .map(|(group, version)| VersionVars::new(project, group, version))
            .collect();
        let webhook_versions: Vec<VersionVars> = webhook_versions(project)
            .into_iter()
            .map(|(group, version)| VersionVars::new(project, group, version))
            .collect();
        let mut api_modules: Vec<String> = versions
            .iter()
            .map(|v| match v.group {
                Some(group) => layout::group_module(group),
                None => v.version.to_owned(),
            })
            .collect();
        api_modules.dedup();
        ProjectVars {
            crd_versions: project
                .resources
                .iter()
                .filter(|r| r.api.is_some())
                .map(|r| {
                    let module = layout::version_module(&r.group, &r.version, project.multigroup);
                    format!("{module}::{}::crd_version()", r.kind)
                })
                .collect(),
            multigroup: project.multigroup,
            api_modules,
            controller_groups: by_group(&controllers, |c| c.group_key(project)),
            webhook_groups: by_group(&webhook_versions, |v| {
                v.group.map(layout::group_module).unwrap_or_default()
            }),
            webop_version: env!("CARGO_PKG_VERSION"),
            cli_version: project.cli_version.as_deref(),
            layout: crate::project::LAYOUT,
            deploy_image_plugin: crate::project::DEPLOY_IMAGE_PLUGIN,
            helm_plugin: project.plugins.helm.is_some(),
            grafana_plugin: project.plugins.grafana.is_some(),
            autoupdate_plugin: project.plugins.autoupdate.is_some(),
            project_name: &project.project_name,
            crate_name: project.crate_name(),
            api_package: project.api_package_name(),
            api_crate: project.api_crate_name(),
            domain: &project.domain,
            repo: project.repo.as_deref(),
            repository_url: project.repo.as_deref().map(repository_url),
            namespace: format!("{}-system", project.project_name),
            namespaced_manager: project.namespaced,
            api_resources: resources.iter().filter(|r| r.api).cloned().collect(),
            controllers,
            webhooks: resources.iter().any(|r| r.webhooks.is_some()),
            admission_webhooks: resources.iter().any(|r| r.defaulting || r.validation),
            webhook_kinds: webhook_versions
                .iter()
                .flat_map(|v| v.webhook_kinds.iter().cloned())
                .collect(),
            conversions: resources.iter().filter(|r| r.conversion).cloned().collect(),
            webhook_blocks: crate::scaffold::kustomize::BLOCKS
                .iter()
                .map(|block| {
                    (
                        block.name,
                        crate::scaffold::kustomize::commented(block.text),
                    )
                })
                .collect(),
            webhook_versions,
            versions,
            resources,
            deploy_image_resources: project
                .plugins
                .deploy_image
                .as_ref()
                .map(|d| d.resources.as_slice()),
            init,
        }
    }
}

impl ProjectVars<'_> {
    /// The Tera context of a render in `scope`: a version's or a kind's variables win over the
    /// project's (`version` is both).
    pub fn context(&self, scope: &Scoped) -> tera::Context {
        let mut context = tera::Context::from_serialize(self).expect("variables serialize");
        let scoped = match scope {
            Scoped::Project => return context,
            Scoped::Group(group) => tera::Context::from_serialize(group),
            Scoped::Version(version) => tera::Context::from_serialize(version),
            Scoped::Resource(resource) => tera::Context::from_serialize(resource),
        };
        context.extend(scoped.expect("variables serialize"));
        context
    }
}
