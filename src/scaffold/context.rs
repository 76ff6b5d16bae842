//! The variables templates see, all derived from the PROJECT file (plus, for `init`, the options
//! that only shape user-owned files: owner, license, the local webop source).

use std::cmp::Ordering;

use serde::Serialize;

use super::identifiers;
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
    /// `<version>::<Kind>::crd_version()` of every kind with an API, for `crdgen`.
    crd_versions: Vec<String>,
    webop_version: &'static str,
    cli_version: Option<&'a str>,
    layout: &'static str,
    deploy_image_plugin: &'static str,
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

/// The variables of an API version: its name and its kinds.
#[derive(Clone, Debug, Serialize)]
pub struct VersionVars<'a> {
    version: &'a str,
    /// The kinds with an API type in this version, in module order.
    kinds: Vec<ResourceVars<'a>>,
    /// The kinds of this version with a webhook module, in module order.
    webhook_kinds: Vec<ResourceVars<'a>>,
}

/// The variables of one kind, named as templates use them.
#[derive(Clone, Debug, Serialize)]
pub struct ResourceVars<'a> {
    api_alias: String,
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
        controllers.sort_by(|a, b| version_order(&a.kind_lower, &b.kind_lower));
        let versions: Vec<VersionVars> = api_versions(project)
            .into_iter()
            .map(|version| VersionVars::new(project, version))
            .collect();
        let webhook_versions: Vec<VersionVars> = versions
            .iter()
            .filter(|v| !v.webhook_kinds.is_empty())
            .cloned()
            .collect();
        ProjectVars {
            crd_versions: project
                .resources
                .iter()
                .filter(|r| r.api.is_some())
                .map(|r| format!("{}::{}::crd_version()", r.version, r.kind))
                .collect(),
            webop_version: env!("CARGO_PKG_VERSION"),
            cli_version: project.cli_version.as_deref(),
            layout: crate::project::LAYOUT,
            deploy_image_plugin: crate::project::DEPLOY_IMAGE_PLUGIN,
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
    pub fn new(project: &'a Project, version: &'a str) -> Self {
        let mut kinds: Vec<ResourceVars> = project
            .resources
            .iter()
            .filter(|r| r.version == version && r.api.is_some())
            .map(|r| ResourceVars::new(project, r))
            .collect();
        kinds.sort_by(|a, b| version_order(&a.kind_lower, &b.kind_lower));
        let webhook_kinds = kinds
            .iter()
            .filter(|k| k.defaulting || k.validation)
            .cloned()
            .collect();
        VersionVars {
            version,
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
        ResourceVars {
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

/// What one render sees besides the project's variables.
#[derive(Clone, Debug)]
pub enum Scoped<'a> {
    Project,
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
            Scoped::Version(version) => tera::Context::from_serialize(version),
            Scoped::Resource(resource) => tera::Context::from_serialize(resource),
        };
        context.extend(scoped.expect("variables serialize"));
        context
    }
}

/// The versions that have at least one API type, in version order (`v1`, `v1beta1`, `v2`).
pub fn api_versions(project: &Project) -> Vec<&str> {
    let mut versions: Vec<&str> = project
        .resources
        .iter()
        .filter(|r| r.api.is_some())
        .map(|r| r.version.as_str())
        .collect();
    versions.sort_by(|a, b| version_order(a, b));
    versions.dedup();
    versions
}

/// rustfmt's (style edition 2024) order of module names: digit runs compare as numbers.
fn version_order(a: &str, b: &str) -> Ordering {
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
