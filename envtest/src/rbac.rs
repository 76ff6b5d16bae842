//! A client that may do only what a project's RBAC manifests grant, on the real API server: a
//! controller tested with it proves that its `config/rbac/role.yaml` is enough (any other request
//! is refused with 403).

use std::path::Path;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject};
use kube::api::{Api, ObjectMeta, Patch, PatchParams};
use serde_json::Value;

use super::Error;
use super::control_plane::ControlPlane;

/// Installs the ClusterRoles and Roles of `files`, binds each to `user`, and returns a client
/// acting as `user` (in no group). `namespace`: where the Roles go, whatever theirs, as
/// kustomize's `namespace:` moves a project's objects into the namespace it deploys to.
pub async fn client_with_roles(
    plane: &ControlPlane,
    user: &str,
    files: &[&Path],
    namespace: Option<&str>,
) -> Result<kube::Client, Error> {
    let admin = plane.client();
    let params = PatchParams::apply("webop-envtest").force();
    let subject = Subject {
        api_group: Some("rbac.authorization.k8s.io".into()),
        kind: "User".into(),
        name: user.into(),
        namespace: None,
    };
    let install = |what: &str, name: &str, error: kube::Error| Error::Install {
        object: format!("{what} {name}"),
        reason: error.to_string(),
    };
    for document in documents(files)? {
        let kind = document["kind"].as_str().unwrap_or_default().to_owned();
        let invalid = |e: serde_json::Error| Error::Client(format!("{kind}: {e}"));
        match kind.as_str() {
            "ClusterRole" => {
                let role: ClusterRole = serde_json::from_value(document).map_err(invalid)?;
                let name = role.metadata.name.clone().unwrap_or_default();
                Api::<ClusterRole>::all(admin.clone())
                    .patch(&name, &params, &Patch::Apply(&role))
                    .await
                    .map_err(|e| install("ClusterRole", &name, e))?;
                let binding = ClusterRoleBinding {
                    metadata: named(&format!("{name}-{user}"), None),
                    role_ref: role_ref("ClusterRole", &name),
                    subjects: Some(vec![subject.clone()]),
                };
                Api::<ClusterRoleBinding>::all(admin.clone())
                    .patch(&format!("{name}-{user}"), &params, &Patch::Apply(&binding))
                    .await
                    .map_err(|e| install("ClusterRoleBinding", &name, e))?;
            }
            "Role" => {
                let mut role: Role = serde_json::from_value(document).map_err(invalid)?;
                let name = role.metadata.name.clone().unwrap_or_default();
                let namespace = namespace
                    .map(str::to_owned)
                    .or_else(|| role.metadata.namespace.clone())
                    .unwrap_or_else(|| "default".into());
                role.metadata.namespace = Some(namespace.clone());
                Api::<Role>::namespaced(admin.clone(), &namespace)
                    .patch(&name, &params, &Patch::Apply(&role))
                    .await
                    .map_err(|e| install("Role", &name, e))?;
                let binding = RoleBinding {
                    metadata: named(&format!("{name}-{user}"), Some(&namespace)),
                    role_ref: role_ref("Role", &name),
                    subjects: Some(vec![subject.clone()]),
                };
                Api::<RoleBinding>::namespaced(admin.clone(), &namespace)
                    .patch(&format!("{name}-{user}"), &params, &Patch::Apply(&binding))
                    .await
                    .map_err(|e| install("RoleBinding", &name, e))?;
            }
            _ => {}
        }
    }
    plane.client_as(user).await
}

fn named(name: &str, namespace: Option<&str>) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_owned()),
        namespace: namespace.map(str::to_owned),
        ..Default::default()
    }
}

fn role_ref(kind: &str, name: &str) -> k8s_openapi::api::rbac::v1::RoleRef {
    k8s_openapi::api::rbac::v1::RoleRef {
        api_group: Some("rbac.authorization.k8s.io".into()),
        kind: kind.into(),
        name: name.into(),
    }
}

/// Every YAML document of `files`, with `apiVersion` and `kind` set for server-side apply.
fn documents(files: &[&Path]) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let documents: Vec<Value> =
            serde_saphyr::from_multiple(&text).map_err(|e| Error::InvalidManifest {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
        out.extend(documents.into_iter().filter(|d| d.is_object()));
    }
    Ok(out)
}
