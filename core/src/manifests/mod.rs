//! From CRDs and RBAC rules to the files `webop manifests` writes: `config/crd/bases/*.yaml` and
//! `config/rbac/role.yaml`, with controller-gen's names, transforms and bytes.

mod descriptions;

use std::fmt;
use std::path::PathBuf;

use serde_json::Value;

use crate::rbac::{Rule, role_documents};
use crate::yaml::documents;

pub use descriptions::truncate_descriptions;

/// The name of the role controller-gen is run with in kubebuilder projects
/// (`controller-gen rbac:roleName=manager-role`).
pub const MANAGER_ROLE: &str = "manager-role";

/// A generated file: where it goes and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestFile {
    /// Relative to the project root.
    pub path: PathBuf,
    pub contents: String,
}

/// A CRD that cannot be written because it lacks what names its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdFileError {
    /// The JSON path of the missing or non-string field.
    pub field: &'static str,
    /// The CRD's `metadata.name`, if it has one.
    pub crd_name: Option<String>,
}

impl fmt::Display for CrdFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self
            .crd_name
            .as_deref()
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        write!(
            f,
            "CustomResourceDefinition{name} has no string `{}`; it names the file config/crd/bases/<group>_<plural>.yaml",
            self.field
        )
    }
}

impl std::error::Error for CrdFileError {}

/// `config/crd/bases/<group>_<plural>.yaml` for a CRD, as controller-gen writes it: one YAML
/// document, without `status` and without `metadata.creationTimestamp`.
///
/// # Panics
/// If the CRD has no `spec.group` or `spec.names.plural` string; every CRD assembled by
/// `webop::crd` has both. Use [`try_crd_file`] for CRDs from elsewhere.
pub fn crd_file(crd: &Value) -> ManifestFile {
    try_crd_file(crd).unwrap_or_else(|error| panic!("{error}"))
}

/// Where the CRD of `plural`.`group` goes: `config/crd/bases/<group>_<plural>.yaml`.
pub fn crd_path(group: &str, plural: &str) -> PathBuf {
    PathBuf::from("config/crd/bases").join(format!("{group}_{plural}.yaml"))
}

/// [`crd_file`] for a CRD that may lack `spec.group` or `spec.names.plural`.
pub fn try_crd_file(crd: &Value) -> Result<ManifestFile, CrdFileError> {
    let field = |pointer: &str, name: &'static str| {
        crd.pointer(pointer)
            .and_then(Value::as_str)
            .ok_or_else(|| CrdFileError {
                field: name,
                crd_name: crd
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
    };
    let group = field("/spec/group", "spec.group")?;
    let plural = field("/spec/names/plural", "spec.names.plural")?;

    let mut crd = crd.clone();
    if let Some(object) = crd.as_object_mut() {
        object.remove("status");
        if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.remove("creationTimestamp");
        }
    }
    Ok(ManifestFile {
        path: crd_path(group, plural),
        contents: documents(&[crd]),
    })
}

/// `config/webhook/manifests.yaml` for `webhooks`, as controller-gen's webhook generator writes
/// it; `None` without webhooks (controller-gen writes no file then).
pub fn webhook_file(
    webhooks: &[crate::webhook::Webhook],
    configurations: &[crate::webhook::Configuration],
) -> Result<Option<ManifestFile>, crate::webhook::DuplicateConfiguration> {
    let configs = crate::webhook::configuration_documents(webhooks, configurations)?;
    Ok((!configs.is_empty()).then(|| ManifestFile {
        path: PathBuf::from("config/webhook/manifests.yaml"),
        contents: documents(&configs),
    }))
}

/// `config/rbac/role.yaml`: the `manager-role` ClusterRole and any namespaced Roles, as
/// controller-gen writes them for `rules`.
///
/// With no rules the contents are empty: controller-gen writes no file at all then, and the
/// caller decides what to do with an existing one.
pub fn role_file(rules: &[Rule]) -> ManifestFile {
    ManifestFile {
        path: PathBuf::from("config/rbac/role.yaml"),
        contents: documents(&role_documents(rules, MANAGER_ROLE)),
    }
}

/// [`role_file`] of the manager's rules. With `namespace` (a namespace-scoped manager, PROJECT
/// `namespaced: true`) the rules without a namespace of their own go to the Role `manager-role`
/// there, as kubebuilder's namespaced projects put `namespace=` in every rbac marker.
pub fn manager_role_file(rules: &[Rule], namespace: Option<&str>) -> ManifestFile {
    let Some(namespace) = namespace else {
        return role_file(rules);
    };
    let scoped: Vec<Rule> = rules
        .iter()
        .map(|rule| Rule {
            namespace: Some(
                rule.namespace
                    .clone()
                    .unwrap_or_else(|| namespace.to_owned()),
            ),
            ..rule.clone()
        })
        .collect();
    role_file(&scoped)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn small_crd() -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {
                "annotations": { "webop.dev/version": "0.1.0" },
                "creationTimestamp": null,
                "name": "webapps.app.example.com"
            },
            "spec": {
                "group": "app.example.com",
                "names": { "kind": "WebApp", "listKind": "WebAppList", "plural": "webapps", "singular": "webapp" },
                "scope": "Namespaced",
                "versions": [{
                    "name": "v1",
                    "schema": { "openAPIV3Schema": {
                        "description": "WebApp is the Schema for the webapps API",
                        "properties": { "spec": { "properties": { "replicas": {
                            "default": 1, "maximum": 10.0, "minimum": 1, "format": "int32", "type": "integer"
                        } }, "type": "object" } },
                        "type": "object"
                    } },
                    "served": true,
                    "storage": true,
                    "subresources": { "status": {} }
                }]
            },
            "status": { "acceptedNames": { "kind": "", "plural": "" }, "storedVersions": null }
        })
    }

    #[test]
    fn crd_file_is_named_by_group_and_plural() {
        let file = crd_file(&small_crd());
        assert_eq!(
            file.path,
            PathBuf::from("config/crd/bases/app.example.com_webapps.yaml")
        );
        let expected = "\
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    webop.dev/version: 0.1.0
  name: webapps.app.example.com
spec:
  group: app.example.com
  names:
    kind: WebApp
    listKind: WebAppList
    plural: webapps
    singular: webapp
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        description: WebApp is the Schema for the webapps API
        properties:
          spec:
            properties:
              replicas:
                default: 1
                format: int32
                maximum: 10
                minimum: 1
                type: integer
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
";
        assert_eq!(file.contents, expected);
    }

    #[test]
    fn crd_without_naming_fields_is_an_error() {
        let mut crd = small_crd();
        crd["spec"]["names"]
            .as_object_mut()
            .unwrap()
            .remove("plural");
        let error = try_crd_file(&crd).unwrap_err();
        assert_eq!(
            error.to_string(),
            "CustomResourceDefinition webapps.app.example.com has no string `spec.names.plural`; \
             it names the file config/crd/bases/<group>_<plural>.yaml"
        );
        let error = try_crd_file(&json!({})).unwrap_err();
        assert_eq!(
            error,
            CrdFileError {
                field: "spec.group",
                crd_name: None
            }
        );
    }

    #[test]
    #[should_panic(expected = "has no string `spec.group`")]
    fn crd_file_panics_on_an_unnamed_crd() {
        crd_file(&json!({ "spec": {} }));
    }

    #[test]
    fn a_namespaced_manager_role_is_a_role_in_its_namespace() {
        let rules = [
            Rule {
                groups: vec!["apps".into()],
                resources: vec!["deployments".into()],
                verbs: vec!["list".into()],
                ..Rule::default()
            },
            Rule {
                groups: vec!["".into()],
                resources: vec!["secrets".into()],
                verbs: vec!["get".into()],
                namespace: Some("vault".into()),
                ..Rule::default()
            },
        ];
        let contents = manager_role_file(&rules, Some("webapp-operator-system")).contents;
        let docs: Vec<Value> =
            serde_saphyr::from_str_multiple::<Value, Vec<Value>>(&contents).unwrap();
        let roles: Vec<(&Value, &Value, &Value)> = docs
            .iter()
            .map(|d| {
                (
                    &d["kind"],
                    &d["metadata"]["namespace"],
                    &d["rules"][0]["resources"][0],
                )
            })
            .collect();
        assert_eq!(
            roles,
            [
                (&json!("Role"), &json!("vault"), &json!("secrets")),
                (
                    &json!("Role"),
                    &json!("webapp-operator-system"),
                    &json!("deployments")
                ),
            ]
        );
        assert_eq!(manager_role_file(&rules[..1], None), role_file(&rules[..1]));
    }

    #[test]
    fn role_file_holds_the_manager_role() {
        let rules = [Rule {
            groups: vec!["apps".into()],
            resources: vec!["deployments".into()],
            verbs: vec!["get".into(), "list".into()],
            ..Rule::default()
        }];
        let file = role_file(&rules);
        assert_eq!(file.path, PathBuf::from("config/rbac/role.yaml"));
        let expected = "\
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - apps
  resources:
  - deployments
  verbs:
  - get
  - list
";
        assert_eq!(file.contents, expected);
        assert_eq!(role_file(&[]).contents, "");
    }
}
