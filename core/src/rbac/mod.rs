//! RBAC rules (`#[rbac(...)]`) and the roles of `config/rbac/role.yaml`.
//!
//! [`role_documents`] is controller-gen v0.21's `GenerateRoles`: rules are grouped by
//! (namespace, role name), each `#[rbac]` is expanded to one rule per resource, the rules of each
//! role are merged, deduplicated and sorted (see `merge`), and one `ClusterRole` (no namespace)
//! or `Role` is written per group, in (namespace, role name) order, so cluster roles come first.

mod merge;
#[cfg(feature = "scan")]
pub(crate) mod scan;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use merge::{Policy, normalize_rules};
#[cfg(feature = "scan")]
pub use scan::{ScanError, rules_in_dir, rules_in_dirs};

/// One `#[rbac(...)]` attribute: controller-gen's `+kubebuilder:rbac` marker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    /// API groups; `""` (or `"core"`) is the core group.
    pub groups: Vec<String>,
    /// Resources, optionally with a subresource (`deployments/status`).
    pub resources: Vec<String>,
    /// Names of the objects the rule is restricted to.
    pub resource_names: Vec<String>,
    /// Verbs (`get`, `list`, ..., or `*`).
    pub verbs: Vec<String>,
    /// Non-resource URLs (`/metrics`).
    pub urls: Vec<String>,
    /// The namespace of the `Role` holding the rule; `None` for the `ClusterRole`.
    pub namespace: Option<String>,
    /// The name of the role holding the rule, instead of the default role name.
    pub role_name: Option<String>,
}

/// The API version of the roles.
const RBAC_API_VERSION: &str = "rbac.authorization.k8s.io/v1";

/// The role documents controller-gen writes for `rules`: the ClusterRole `role_name` first, then one
/// Role per (namespace, role name); rules merged, deduplicated and sorted as controller-gen does.
///
/// Each document is the JSON controller-gen serialises (`apiVersion`, `kind`, `metadata.name`,
/// `metadata.namespace` for a `Role`, `rules`); a role whose rules all merge away is not written,
/// and no rules at all means no documents.
pub fn role_documents(rules: &[Rule], role_name: &str) -> Vec<Value> {
    let mut by_role: BTreeMap<(&str, &str), Vec<Policy>> = BTreeMap::new();
    for rule in rules {
        let namespace = rule.namespace.as_deref().unwrap_or("");
        let name = rule
            .role_name
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(role_name);
        by_role
            .entry((namespace, name))
            .or_default()
            .extend(expand(rule));
    }
    by_role
        .into_iter()
        .filter_map(|((namespace, name), policies)| {
            let policies = normalize_rules(policies);
            (!policies.is_empty()).then(|| role_document(namespace, name, &policies))
        })
        .collect()
}

/// One policy rule per resource (or one without resources for non-resource URLs).
fn expand(rule: &Rule) -> Vec<Policy> {
    let with_resources = |resources: Vec<String>| Policy {
        groups: rule.groups.clone(),
        resources,
        resource_names: rule.resource_names.clone(),
        urls: rule.urls.clone(),
        verbs: rule.verbs.clone(),
    };
    if rule.resources.is_empty() {
        return vec![with_resources(Vec::new())];
    }
    rule.resources
        .iter()
        .map(|resource| with_resources(vec![resource.clone()]))
        .collect()
}

fn role_document(namespace: &str, name: &str, policies: &[Policy]) -> Value {
    let (kind, metadata) = if namespace.is_empty() {
        ("ClusterRole", json!({ "name": name }))
    } else {
        ("Role", json!({ "name": name, "namespace": namespace }))
    };
    json!({
        "apiVersion": RBAC_API_VERSION,
        "kind": kind,
        "metadata": metadata,
        "rules": policies.iter().map(policy_rule_json).collect::<Vec<_>>(),
    })
}

/// A Kubernetes `PolicyRule`: empty lists are omitted (`omitempty`), except `verbs`, which is
/// always present (`null` when empty).
fn policy_rule_json(policy: &Policy) -> Value {
    let mut rule = Map::new();
    let fields = [
        ("apiGroups", &policy.groups),
        ("nonResourceURLs", &policy.urls),
        ("resourceNames", &policy.resource_names),
        ("resources", &policy.resources),
    ];
    for (field, list) in fields {
        if !list.is_empty() {
            rule.insert(field.to_owned(), json!(list));
        }
    }
    let verbs = if policy.verbs.is_empty() {
        Value::Null
    } else {
        json!(policy.verbs)
    };
    rule.insert("verbs".to_owned(), verbs);
    Value::Object(rule)
}

#[cfg(test)]
mod tests;
