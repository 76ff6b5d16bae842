//! The variables templates see, all derived from the PROJECT file (plus, for `init`, the options
//! that only shape user-owned files: owner, license, the local webop source).

mod group_vars;
// A child module, so that the project's variables are built from the kinds' and versions'
// private fields without widening them.
mod project_vars;

use std::cmp::Ordering;

use serde::Serialize;

use super::identifiers;
use crate::project::{Project, Resource, Webhooks, layout};
use group_vars::by_group;

pub use group_vars::{GroupVars, api_groups, api_versions, webhook_versions};
pub use project_vars::{InitOptions, ProjectVars};

/// The port the deploy-image controller uses when `--port` was not given.
pub const DEFAULT_PORT: u16 = 80;

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
    /// Where the kind's type is when the project's API crate does not define it (a Kubernetes
    /// kind's `k8s_openapi::api::apps`, an external API's crate): it replaces the project's
    /// `api_crate` in the kind's templates.
    #[serde(skip_serializing_if = "Option::is_none")]
    api_crate: Option<String>,
    /// A kind whose type the project does not scaffold: Kubernetes' own, or an external API's.
    foreign: bool,
    /// One of Kubernetes' kinds (PROJECT's `core: true`).
    core: bool,
    /// The group's module (`sea_creatures`), whatever the layout.
    group_module: String,
    /// The kind's version module in the API crate: `v1`, or `ship::v1` when multigroup.
    version_module: String,
    /// The module of the kind's webhooks below `src/webhook/`: `v1`, or `ship::v1` when
    /// multigroup (for a kind of Kubernetes' too, whose type is elsewhere).
    webhook_module: String,
    /// What names another version of the kind's group in the API crate: `` or `ship::`.
    group_prefix: String,
    /// The controller's module under `controller`: `frigate_controller`, or
    /// `ship::frigate_controller` when multigroup. Of the kind's first controller, or of the
    /// one [`ResourceVars::of_controller`] names.
    controller_module: String,
    /// The controller's name in logs and metrics: `frigate`, or `ship-frigate` when multigroup
    /// (controller-runtime needs unique names).
    controller_name: String,
    /// The stem of the controller's files: `frigate`, or `frigate_backup` for the controller
    /// `create api --controller-name frigate-backup` named.
    controller_file: String,
    /// Whether the controller's name is not the kind's (a second controller of the kind).
    named_controller: bool,
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
    /// PROJECT's `controller: true`: the kind's one unnamed controller.
    controller: bool,
    /// The names of the kind's controllers (PROJECT's `controllers:` when `controller` is false).
    controller_names: Vec<String>,
    path: Option<&'a str>,
    deploy_image: bool,
    image: Option<&'a str>,
    port: u16,
    run_as_user: Option<i64>,
    /// `--container-command`, split at its commas.
    container_command: Vec<&'a str>,
    /// `--kubebuilder-spec`: kubebuilder's deploy-image kind (spec `size`, `containerPort`
    /// when `--port` was given; the image from the options).
    kubebuilder_spec: bool,
    /// `--port` was given (kubebuilder's spec has `containerPort` only then).
    container_port: bool,
    /// The manager's environment variable that overrides the image: `MEMCACHED_IMAGE`.
    image_env: String,
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
    /// Where the defaulting webhook is served: controller-runtime's path, or `--defaulting-path`
    /// (then `custom_defaulting_path`, and it is registered with `defaulter_at`).
    defaulting_path: String,
    custom_defaulting_path: bool,
    /// The same for the validating webhook (`--validation-path`, `validator_at`).
    validation_path: String,
    custom_validation_path: bool,
    /// The CRD's name, `<plural>.<group>.<domain>`.
    crd_name: String,
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
        let mut webhook_kinds: Vec<ResourceVars> = project
            .resources
            .iter()
            .filter(|r| r.version == version && r.admission_webhooks())
            .filter(|r| group.is_none_or(|g| r.group == g))
            .map(|r| ResourceVars::new(project, r))
            .collect();
        webhook_kinds.sort_by(|a, b| version_order(&a.kind_lower, &b.kind_lower));
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
        let webhook_path = format!(
            "{}-{}-{kind_lower}",
            group_domain.replace('.', "-"),
            resource.version
        );
        // A foreign kind without types in the API crate is named by its module's path.
        let foreign_module = resource
            .path
            .as_deref()
            .filter(|_| resource.api.is_none())
            .and_then(|path| path.rsplit_once("::"));
        ResourceVars {
            api_crate: foreign_module.map(|(krate, _)| krate.to_owned()),
            foreign: resource.foreign(),
            core: resource.core,
            version_module: match foreign_module {
                Some((_, module)) => module.to_owned(),
                None => format!("{group_prefix}{}", resource.version),
            },
            webhook_module: format!("{group_prefix}{}", resource.version),
            controller_module: format!("{group_prefix}{kind_lower}_controller"),
            controller_name: layout::qualified(&kind_lower, &resource.group, multigroup, '-'),
            controller_file: kind_lower.clone(),
            named_controller: false,
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
            defaulting_path: webhooks
                .and_then(|w| w.defaulting_path.clone())
                .unwrap_or_else(|| format!("/mutate-{webhook_path}")),
            custom_defaulting_path: webhooks.is_some_and(|w| w.defaulting_path.is_some()),
            validation_path: webhooks
                .and_then(|w| w.validation_path.clone())
                .unwrap_or_else(|| format!("/validate-{webhook_path}")),
            custom_validation_path: webhooks.is_some_and(|w| w.validation_path.is_some()),
            webhook_path,
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
            namespaced: match (&resource.api, resource.core_group()) {
                (Some(api), _) => api.namespaced,
                (None, Some(core)) => !core.is_cluster_scoped(&resource.kind),
                (None, None) => true,
            },
            controller: resource.controller,
            controller_names: resource.controller_names(),
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
            container_command: image.map_or_else(Vec::new, |o| o.command()),
            kubebuilder_spec: image.is_some_and(|o| o.kubebuilder_spec),
            container_port: image.is_some_and(|o| o.container_port.is_some()),
            image_env: format!("{}_IMAGE", resource.kind.to_ascii_uppercase()),
        }
    }
}

impl<'a> ResourceVars<'a> {
    /// The variables of the kind's controller `name` (one of `resource.controller_names()`).
    pub fn of_controller(project: &'a Project, resource: &'a Resource, name: &str) -> Self {
        let mut vars = ResourceVars::new(project, resource);
        let file = crate::project::controller_file(name);
        vars.controller_module = format!("{}{file}_controller", vars.group_prefix);
        vars.controller_name = layout::qualified(name, &resource.group, project.multigroup, '-');
        vars.named_controller = file != vars.kind_lower;
        vars.controller_file = file;
        vars
    }

    /// The variables of each of the kind's controllers, in the order they were created.
    pub fn controllers(project: &'a Project, resource: &'a Resource) -> Vec<Self> {
        resource
            .controller_names()
            .iter()
            .map(|name| ResourceVars::of_controller(project, resource, name))
            .collect()
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
