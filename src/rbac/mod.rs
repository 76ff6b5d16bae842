//! RBAC rules (`#[rbac(...)]`) and the roles of `config/rbac/role.yaml`.

use serde_json::Value;

/// One `#[rbac(...)]` attribute: controller-gen's `+kubebuilder:rbac` marker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub verbs: Vec<String>,
    pub urls: Vec<String>,
    pub namespace: Option<String>,
    pub role_name: Option<String>,
}

/// The role documents controller-gen writes for `rules`: the ClusterRole `role_name` first, then one
/// Role per (namespace, role name); rules merged, deduplicated and sorted as controller-gen does.
pub fn role_documents(rules: &[Rule], role_name: &str) -> Vec<Value> {
    let _ = (rules, role_name);
    unimplemented!("the rbac branch fills this in")
}

/// Every `#[rbac(...)]` rule in the Rust files under `dir`, as controller-gen collects markers.
#[cfg(feature = "cli")]
pub fn rules_in_dir(
    dir: &std::path::Path,
) -> Result<Vec<Rule>, Box<dyn std::error::Error + Send + Sync>> {
    let _ = dir;
    unimplemented!("the rbac branch fills this in")
}
