//! The catalogue of served resource types and the discovery documents built from it
//! (`/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`, `/version`).

use serde_json::{Value, json};

use super::resources::{self, ResourceType};

const VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];
const SUBRESOURCE_VERBS: [&str; 3] = ["get", "patch", "update"];

/// Every resource type the server serves.
#[derive(Debug, Clone)]
pub struct Catalog {
    types: Vec<ResourceType>,
}

impl Default for Catalog {
    fn default() -> Self {
        Self {
            types: resources::builtins(),
        }
    }
}

impl Catalog {
    /// The type served at `group/version/plural`.
    pub fn find(&self, group: &str, version: &str, plural: &str) -> Option<&ResourceType> {
        self.types.iter().find(|t| {
            t.group == group && t.plural == plural && t.versions.iter().any(|v| v == version)
        })
    }

    /// Every served type.
    pub fn types(&self) -> &[ResourceType] {
        &self.types
    }

    /// Serves (or re-serves, after a change) the type a CRD defines.
    pub fn install(&mut self, resource_type: ResourceType) {
        self.types
            .retain(|t| !(t.group == resource_type.group && t.plural == resource_type.plural));
        self.types.push(resource_type);
    }

    /// Stops serving a custom type.
    pub fn uninstall(&mut self, group: &str, plural: &str) -> Option<ResourceType> {
        let index = self
            .types
            .iter()
            .position(|t| t.custom && t.group == group && t.plural == plural)?;
        Some(self.types.remove(index))
    }

    /// `GET /version`.
    pub fn version() -> Value {
        json!({
            "major": "1",
            "minor": "34",
            "gitVersion": "v1.34.0-webop-testkit",
            "gitCommit": "",
            "gitTreeState": "clean",
            "buildDate": "2025-01-01T00:00:00Z",
            "goVersion": "",
            "compiler": "rustc",
            "platform": "linux/amd64"
        })
    }

    /// `GET /api`.
    pub fn core_versions() -> Value {
        json!({
            "kind": "APIVersions",
            "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]
        })
    }

    fn groups(&self) -> Vec<&str> {
        let mut groups: Vec<&str> = Vec::new();
        for t in &self.types {
            if !t.group.is_empty() && !groups.contains(&t.group.as_str()) {
                groups.push(&t.group);
            }
        }
        groups
    }

    fn group_document(&self, group: &str) -> Option<Value> {
        let mut versions: Vec<&str> = Vec::new();
        let mut preferred = None;
        for t in self.types.iter().filter(|t| t.group == group) {
            preferred.get_or_insert(t.storage_version());
            for v in &t.versions {
                if !versions.contains(&v.as_str()) {
                    versions.push(v);
                }
            }
        }
        let preferred = preferred?;
        let entry = |v: &str| json!({"groupVersion": format!("{group}/{v}"), "version": v});
        Some(json!({
            "name": group,
            "versions": versions.iter().map(|v| entry(v)).collect::<Vec<_>>(),
            "preferredVersion": entry(preferred),
        }))
    }

    /// `GET /apis`.
    pub fn group_list(&self) -> Value {
        let groups: Vec<Value> = self
            .groups()
            .into_iter()
            .filter_map(|g| self.group_document(g))
            .collect();
        json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
    }

    /// `GET /apis/<group>`.
    pub fn group(&self, group: &str) -> Option<Value> {
        let mut document = self.group_document(group)?;
        document["kind"] = json!("APIGroup");
        document["apiVersion"] = json!("v1");
        Some(document)
    }

    /// Aggregated discovery (`apidiscovery.k8s.io/v2`): every group with its versions and
    /// resources in one document, for `/api` (`core`) or `/apis`.
    pub fn aggregated(&self, core: bool) -> Value {
        let groups: Vec<&str> = if core { vec![""] } else { self.groups() };
        let items: Vec<Value> = groups
            .into_iter()
            .map(|group| {
                let mut versions: Vec<&str> = Vec::new();
                for t in self.types.iter().filter(|t| t.group == group) {
                    for v in &t.versions {
                        if !versions.contains(&v.as_str()) {
                            versions.push(v);
                        }
                    }
                }
                let versions: Vec<Value> = versions
                    .into_iter()
                    .map(|version| {
                        let resources: Vec<Value> = self
                            .types
                            .iter()
                            .filter(|t| t.group == group && t.versions.iter().any(|v| v == version))
                            .map(|t| aggregated_resource(t, version))
                            .collect();
                        json!({"version": version, "resources": resources, "freshness": "Current"})
                    })
                    .collect();
                json!({"metadata": {"name": group}, "versions": versions})
            })
            .collect();
        json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items})
    }

    /// `GET /api/v1` or `GET /apis/<group>/<version>`.
    pub fn resource_list(&self, group: &str, version: &str) -> Option<Value> {
        let mut resources = Vec::new();
        for t in self
            .types
            .iter()
            .filter(|t| t.group == group && t.versions.iter().any(|v| v == version))
        {
            let mut entry = json!({
                "name": t.plural,
                "singularName": t.singular,
                "namespaced": t.namespaced,
                "kind": t.kind,
                "verbs": VERBS,
            });
            if !t.short_names.is_empty() {
                entry["shortNames"] = json!(t.short_names);
            }
            if !t.categories.is_empty() {
                entry["categories"] = json!(t.categories);
            }
            resources.push(entry);
            if t.status_subresource {
                resources.push(json!({
                    "name": format!("{}/status", t.plural),
                    "singularName": "",
                    "namespaced": t.namespaced,
                    "kind": t.kind,
                    "verbs": SUBRESOURCE_VERBS,
                }));
            }
            if t.scale.is_some() {
                resources.push(json!({
                    "name": format!("{}/scale", t.plural),
                    "singularName": "",
                    "namespaced": t.namespaced,
                    "group": "autoscaling",
                    "version": "v1",
                    "kind": "Scale",
                    "verbs": SUBRESOURCE_VERBS,
                }));
            }
        }
        if resources.is_empty() {
            return None;
        }
        let group_version = if group.is_empty() {
            version.to_string()
        } else {
            format!("{group}/{version}")
        };
        Some(
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": resources}),
        )
    }
}

fn aggregated_resource(t: &ResourceType, version: &str) -> Value {
    let kind = json!({"group": t.group, "version": version, "kind": t.kind});
    let mut entry = json!({
        "resource": t.plural,
        "responseKind": kind,
        "scope": if t.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": t.singular,
        "verbs": VERBS,
    });
    if !t.short_names.is_empty() {
        entry["shortNames"] = json!(t.short_names);
    }
    if !t.categories.is_empty() {
        entry["categories"] = json!(t.categories);
    }
    let mut subresources = Vec::new();
    if t.status_subresource {
        subresources.push(
            json!({"subresource": "status", "responseKind": kind, "verbs": SUBRESOURCE_VERBS}),
        );
    }
    if t.scale.is_some() {
        let scale = json!({"group": "autoscaling", "version": "v1", "kind": "Scale"});
        subresources.push(
            json!({"subresource": "scale", "responseKind": scale, "verbs": SUBRESOURCE_VERBS}),
        );
    }
    if !subresources.is_empty() {
        entry["subresources"] = json!(subresources);
    }
    entry
}
