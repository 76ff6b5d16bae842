//! The variables templates see, all derived from the PROJECT file (plus, for `init`, the options
//! that only shape user-owned files: owner, license, the local webop source).

use std::cmp::Ordering;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::identifiers;
use crate::project::{Project, Resource};

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

/// The variables of one render: the project's, plus a version's or a kind's.
#[derive(Clone, Debug)]
pub struct Variables(Map<String, Value>);

impl Variables {
    /// The project-wide variables.
    pub fn project(project: &Project, init: Option<&InitOptions>) -> Self {
        let resources: Vec<Value> = project
            .resources
            .iter()
            .map(|r| resource_values(project, r))
            .collect();
        let mut controllers: Vec<&Value> = resources
            .iter()
            .filter(|r| r["controller"] == true)
            .collect();
        controllers.sort_by(|a, b| version_order(str_of(a, "kind_lower"), str_of(b, "kind_lower")));
        let versions: Vec<Value> = api_versions(project)
            .iter()
            .map(|version| json!({ "version": version, "kinds": kinds_of(project, version) }))
            .collect();
        let crd_versions: Vec<String> = project
            .resources
            .iter()
            .filter(|r| r.api.is_some())
            .map(|r| format!("{}::{}::crd_version()", r.version, r.kind))
            .collect();
        let mut vars = json!({
            "crd_versions": crd_versions,
            "webop_version": env!("CARGO_PKG_VERSION"),
            "cli_version": project.cli_version,
            "layout": crate::project::LAYOUT,
            "deploy_image_plugin": crate::project::DEPLOY_IMAGE_PLUGIN,
            "project_name": project.project_name,
            "crate_name": project.crate_name(),
            "api_package": project.api_package_name(),
            "api_crate": project.api_crate_name(),
            "domain": project.domain,
            "repo": project.repo,
            "repository_url": project.repo.as_deref().map(repository_url),
            "namespace": format!("{}-system", project.project_name),
            "resources": resources,
            "api_resources": resources.iter().filter(|r| r["api"] == true).collect::<Vec<_>>(),
            "controllers": controllers,
            "versions": versions,
            "deploy_image_resources": project.plugins.deploy_image.as_ref().map(|d| &d.resources),
        });
        if let Some(init) = init {
            let init = serde_json::to_value(init).expect("init options serialize");
            merge(&mut vars, init);
        }
        Variables(into_map(vars))
    }

    /// The project's variables plus `version` and `kinds` (the kinds with an API in `version`).
    pub fn version(project: &Project, version: &str) -> Self {
        let values = json!({ "version": version, "kinds": kinds_of(project, version) });
        Variables(into_map(values))
    }

    /// The variables of one kind (listed in `resource_values`).
    pub fn resource(project: &Project, resource: &Resource) -> Self {
        Variables(into_map(resource_values(project, resource)))
    }

    /// `self` with `other`'s variables added (`other` wins on a clash).
    pub fn with(mut self, other: &Variables) -> Self {
        self.0
            .extend(other.0.iter().map(|(k, v)| (k.clone(), v.clone())));
        self
    }

    /// The Tera context of these variables.
    pub fn to_context(&self) -> tera::Context {
        tera::Context::from_serialize(&self.0).expect("variables are a JSON object")
    }

    /// One variable, for the planner.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }
}

/// The kinds with an API type in `version`, by module name.
fn kinds_of(project: &Project, version: &str) -> Vec<Value> {
    let mut kinds: Vec<Value> = project
        .resources
        .iter()
        .filter(|r| r.version == version && r.api.is_some())
        .map(|r| resource_values(project, r))
        .collect();
    kinds.sort_by(|a, b| version_order(str_of(a, "kind_lower"), str_of(b, "kind_lower")));
    kinds
}

/// Every variable of a kind, named as templates use them.
fn resource_values(project: &Project, resource: &Resource) -> Value {
    let image = project.deploy_image_options(resource);
    let port = image
        .and_then(|o| o.container_port.as_deref())
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or(DEFAULT_PORT);
    let kind_lower = resource.kind.to_ascii_lowercase();
    let kind_var = identifiers::kind_var(&kind_lower);
    let plural = resource.plural();
    let plural_var = identifiers::plural_var(&plural, &kind_var);
    json!({
        "api_alias": identifiers::api_alias(&resource.group, &resource.version),
        "group": resource.group,
        "version": resource.version,
        "kind": resource.kind,
        "kind_lower": kind_lower,
        "kind_var": kind_var,
        "plural": plural,
        "plural_var": plural_var,
        "plural_override": resource.plural,
        "domain": resource.domain,
        "group_domain": resource.qualified_group(),
        "api": resource.api.is_some(),
        "crd_version": resource.api.as_ref().map(|a| &a.crd_version),
        "namespaced": resource.api.as_ref().is_none_or(|a| a.namespaced),
        "controller": resource.controller,
        "path": resource.path,
        "deploy_image": image.is_some(),
        "image": image.map(|o| &o.image),
        "port": port,
        "run_as_user": image.and_then(|o| o.run_as_user.as_deref()).and_then(|u| u.parse::<i64>().ok()),
    })
}

/// The versions that have at least one API type, in version order (`v1`, `v1beta1`, `v2`).
pub fn api_versions(project: &Project) -> Vec<String> {
    let mut versions: Vec<String> = project
        .resources
        .iter()
        .filter(|r| r.api.is_some())
        .map(|r| r.version.clone())
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

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        into.extend(from);
    }
}

fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("variables are built as JSON objects"),
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
