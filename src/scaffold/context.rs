//! The variables templates see, all derived from the PROJECT file (plus, for `init`, the options
//! that only shape user-owned files: owner, license, the local webop source).

use std::cmp::Ordering;

use serde::Serialize;

use super::group_vars::{ModuleGroup, by_group};
use super::{identifiers, layout};

pub use super::group_vars::{GroupVars, api_groups, api_versions};
use crate::project::{DeployImageResource, Project, Resource, Webhooks};

/// The port the deploy-image controller uses when `--port` was not given.
pub const DEFAULT_PORT: u16 = 80;

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
    /// PROJECT records `edit --plugins helm` / `grafana`.
    helm_plugin: bool,
    grafana_plugin: bool,
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
    /// The kinds with a controller, in module order.
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

/// The variables of an API version (of one group, in a multigroup project): its name and its
/// kinds.
#[derive(Clone, Debug, Serialize)]
pub struct VersionVars<'a> {
    /// The group of a multigroup project's version; `None` when single-group.
    #[serde(skip)]
    group: Option<&'a str>,
    version: &'a str,
    /// The version's module path in the API crate: `v1`, or `ship::v1` when multigroup.
    version_module: String,
    /// The kinds with an API type in this version, in module order.
    kinds: Vec<ResourceVars<'a>>,
    /// The kinds of this version with a webhook module, in module order.
    webhook_kinds: Vec<ResourceVars<'a>>,
}

/// The variables of one kind, named as templates use them.
#[derive(Clone, Debug, Serialize)]
pub struct ResourceVars<'a> {
    api_alias: String,
    /// The group's module (`sea_creatures`), whatever the layout.
    group_module: String,
    /// The kind's version module in the API crate: `v1`, or `ship::v1` when multigroup.
    version_module: String,
    /// What names another version of the kind's group in the API crate: `` or `ship::`.
    group_prefix: String,
    /// The controller's module under `controller`: `frigate_controller`, or
    /// `ship::frigate_controller` when multigroup.
    controller_module: String,
    /// The controller's name in logs and metrics: `frigate`, or `ship-frigate` when multigroup
    /// (controller-runtime needs unique names).
    controller_name: String,
    /// The prefix of the kind's role names: `frigate`, or `ship-frigate` when multigroup.
    kind_role: String,
    /// The prefix of the kind's role files: `frigate`, or `ship_frigate` when multigroup.
    kind_file: String,
    /// The kind's module at the API crate's root: its version, or its group when multigroup.
    api_top_module: String,
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    kind_lower: String,
    kind_var: String,
    plural: String,
    plural_var: String,
    /// `--plural`, when given.
    plural_override: Option<&'a str>,
    domain: &'a str,
    external: bool,
    group_domain: String,
    api: bool,
    crd_version: Option<&'a str>,
    namespaced: bool,
    controller: bool,
    path: Option<&'a str>,
    deploy_image: bool,
    image: Option<&'a str>,
    port: u16,
    run_as_user: Option<i64>,
    /// PROJECT's `webhooks:` of the kind.
    webhooks: Option<&'a Webhooks>,
    defaulting: bool,
    validation: bool,
    /// Whether this version is the hub of a conversion webhook.
    conversion: bool,
    /// The hub's spokes.
    spokes: Vec<&'a str>,
    /// The hub this version converts through, when it is a spoke.
    hub: Option<&'a str>,
    /// `<group>-<domain with '-'>-<version>-<kind lower>`: controller-runtime's webhook paths
    /// are `/mutate-` and `/validate-` followed by it.
    webhook_path: String,
    /// The CRD's name, `<plural>.<group>.<domain>`.
    crd_name: String,
}

impl<'a> ProjectVars<'a> {
    pub fn new(project: &'a Project, init: Option<&'a InitOptions>) -> Self {
        let resources: Vec<ResourceVars> = project
            .resources
            .iter()
            .map(|r| ResourceVars::new(project, r))
            .collect();
        let mut controllers: Vec<ResourceVars> =
            resources.iter().filter(|r| r.controller).cloned().collect();
        controllers.sort_by(|a, b| {
            version_order(&a.group_key(project), &b.group_key(project))
                .then_with(|| version_order(&a.kind_lower, &b.kind_lower))
        });
        let versions: Vec<VersionVars> = api_versions(project)
            .into_iter()
            .map(|(group, version)| VersionVars::new(project, group, version))
            .collect();
        let webhook_versions: Vec<VersionVars> = versions
            .iter()
            .filter(|v| !v.webhook_kinds.is_empty())
            .cloned()
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
            webhook_blocks: super::kustomize::BLOCKS
                .iter()
                .map(|block| (block.name, super::kustomize::commented(block.text)))
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

impl<'a> VersionVars<'a> {
    /// The version `version` (of `group` when the project is multigroup, `None` otherwise).
    pub fn new(project: &'a Project, group: Option<&'a str>, version: &'a str) -> Self {
        let mut kinds: Vec<ResourceVars> = project
            .resources
            .iter()
            .filter(|r| r.version == version && r.api.is_some())
            .filter(|r| group.is_none_or(|g| r.group == g))
            .map(|r| ResourceVars::new(project, r))
            .collect();
        kinds.sort_by(|a, b| version_order(&a.kind_lower, &b.kind_lower));
        let webhook_kinds = kinds
            .iter()
            .filter(|k| k.defaulting || k.validation)
            .cloned()
            .collect();
        VersionVars {
            group,
            version,
            version_module: match group {
                Some(group) => layout::version_module(group, version, true),
                None => version.to_owned(),
            },
            kinds,
            webhook_kinds,
        }
    }
}

impl<'a> ResourceVars<'a> {
    pub fn new(project: &'a Project, resource: &'a Resource) -> Self {
        let image = project.deploy_image_options(resource);
        let kind_lower = resource.kind.to_ascii_lowercase();
        let kind_var = identifiers::kind_var(&kind_lower);
        let plural = resource.plural();
        let plural_var = identifiers::plural_var(&plural, &kind_var);
        let webhooks = resource.webhooks.as_ref();
        let group_domain = resource.qualified_group();
        let multigroup = project.multigroup;
        let group_module = layout::group_module(&resource.group);
        let group_prefix = if multigroup {
            format!("{group_module}::")
        } else {
            String::new()
        };
        ResourceVars {
            version_module: format!("{group_prefix}{}", resource.version),
            controller_module: format!("{group_prefix}{kind_lower}_controller"),
            controller_name: layout::qualified(&kind_lower, &resource.group, multigroup, '-'),
            kind_role: layout::qualified(&kind_lower, &resource.group, multigroup, '-'),
            kind_file: layout::qualified(&kind_lower, &resource.group, multigroup, '_'),
            api_top_module: if multigroup {
                group_module.clone()
            } else {
                resource.version.clone()
            },
            group_prefix,
            group_module,
            webhooks,
            defaulting: webhooks.is_some_and(|w| w.defaulting),
            validation: webhooks.is_some_and(|w| w.validation),
            conversion: webhooks.is_some_and(|w| w.conversion),
            spokes: webhooks
                .map_or_else(Vec::new, |w| w.spoke.iter().map(String::as_str).collect()),
            hub: project
                .hub_of(&resource.group, &resource.version, &resource.kind)
                .map(|hub| hub.version.as_str()),
            webhook_path: format!(
                "{}-{}-{kind_lower}",
                group_domain.replace('.', "-"),
                resource.version
            ),
            crd_name: format!("{plural}.{group_domain}"),
            api_alias: identifiers::api_alias(&resource.group, &resource.version),
            group: &resource.group,
            version: &resource.version,
            kind: &resource.kind,
            kind_lower,
            kind_var,
            plural,
            plural_var,
            plural_override: resource.plural.as_deref(),
            domain: &resource.domain,
            external: resource.external,
            group_domain,
            api: resource.api.is_some(),
            crd_version: resource.api.as_ref().map(|a| a.crd_version.as_str()),
            namespaced: resource.api.as_ref().is_none_or(|a| a.namespaced),
            controller: resource.controller,
            path: resource.path.as_deref(),
            deploy_image: image.is_some(),
            image: image.map(|o| o.image.as_str()),
            port: image
                .and_then(|o| o.container_port.as_deref())
                .and_then(|p| p.parse::<u16>().ok())
                .unwrap_or(DEFAULT_PORT),
            run_as_user: image
                .and_then(|o| o.run_as_user.as_deref())
                .and_then(|u| u.parse::<i64>().ok()),
        }
    }
}

impl ResourceVars<'_> {
    /// The module of the kind's group in a multigroup project, `""` otherwise: controllers
    /// are grouped by it.
    fn group_key(&self, project: &Project) -> String {
        if project.multigroup {
            self.group_module.clone()
        } else {
            String::new()
        }
    }

    /// The group, as the layout places the kind's files.
    pub fn group(&self) -> &str {
        self.group
    }
}

impl VersionVars<'_> {
    /// The version's group in a multigroup project.
    pub fn group(&self) -> Option<&str> {
        self.group
    }
}

/// What one render sees besides the project's variables.
#[derive(Clone, Debug)]
pub enum Scoped<'a> {
    Project,
    Group(GroupVars<'a>),
    Version(VersionVars<'a>),
    Resource(Box<ResourceVars<'a>>),
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

/// rustfmt's (style edition 2024) order of module names: digit runs compare as numbers.
pub(super) fn version_order(a: &str, b: &str) -> Ordering {
    super::markers::rustfmt_order(a, b)
}

/// `github.com/example/webapp-operator` → `https://github.com/example/webapp-operator`.
fn repository_url(repo: &str) -> String {
    if repo.contains("://") {
        repo.to_owned()
    } else {
        format!("https://{repo}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_like_rustfmt() {
        let mut v = vec!["v2", "v10", "v1beta1", "v1", "v1alpha1"];
        v.sort_by(|a, b| version_order(a, b));
        assert_eq!(v, ["v1", "v1alpha1", "v1beta1", "v2", "v10"]);
    }

    #[test]
    fn repository_urls() {
        assert_eq!(
            repository_url("github.com/example/webapp-operator"),
            "https://github.com/example/webapp-operator"
        );
        assert_eq!(
            repository_url("https://git.example/x"),
            "https://git.example/x"
        );
    }
}
