//! Kubernetes' own API groups, as kubebuilder names them for `create api --resource=false` (its
//! "core types"): `core`, `apps`, `batch`, `networking`, `rbac.authorization`, ... A controller
//! for one of their kinds (`--group apps --version v1 --kind Deployment`) watches k8s-openapi's
//! type (`k8s_openapi::api::apps::v1::Deployment`), and its RBAC names the real API group (`apps`,
//! `""` for `core`, `networking.k8s.io`).

/// One of Kubernetes' API groups: kubebuilder's name for it, the domain kubebuilder records
/// with it (`k8s.io` or none), and k8s-openapi's module of its types under `k8s_openapi::api`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreGroup {
    pub group: &'static str,
    pub domain: &'static str,
    pub module: &'static str,
}

const fn core(group: &'static str, domain: &'static str, module: &'static str) -> CoreGroup {
    CoreGroup {
        group,
        domain,
        module,
    }
}

/// kubebuilder's core groups (its `coreGroups`) that k8s-openapi has types of.
pub const CORE_GROUPS: &[CoreGroup] = &[
    core("admissionregistration", "k8s.io", "admissionregistration"),
    core("apps", "", "apps"),
    core("authentication", "k8s.io", "authentication"),
    core("authorization", "k8s.io", "authorization"),
    core("autoscaling", "", "autoscaling"),
    core("batch", "", "batch"),
    core("certificates", "k8s.io", "certificates"),
    core("coordination", "k8s.io", "coordination"),
    core("core", "", "core"),
    core("discovery", "k8s.io", "discovery"),
    core("events", "k8s.io", "events"),
    core("networking", "k8s.io", "networking"),
    core("node", "k8s.io", "node"),
    core("policy", "", "policy"),
    core("rbac.authorization", "k8s.io", "rbac"),
    core("scheduling", "k8s.io", "scheduling"),
    core("storage", "k8s.io", "storage"),
];

/// The Kubernetes API group kubebuilder calls `group`, if it is one.
pub fn core_group(group: &str) -> Option<&'static CoreGroup> {
    CORE_GROUPS.iter().find(|g| g.group == group)
}

impl CoreGroup {
    /// The API group as the API server and RBAC name it: `""` for `core`, `apps`,
    /// `networking.k8s.io`.
    pub fn api_group(&self) -> String {
        match (self.group, self.domain) {
            ("core", _) => String::new(),
            (group, "") => group.to_owned(),
            (group, domain) => format!("{group}.{domain}"),
        }
    }

    /// Whether the group's `kind` is cluster-scoped (a Namespace, a ClusterRole, ...); every
    /// other kind of Kubernetes' lives in a namespace.
    pub fn is_cluster_scoped(&self, kind: &str) -> bool {
        const CLUSTER_SCOPED: &[(&str, &str)] = &[
            ("admissionregistration", "MutatingWebhookConfiguration"),
            ("admissionregistration", "ValidatingWebhookConfiguration"),
            ("admissionregistration", "ValidatingAdmissionPolicy"),
            ("admissionregistration", "ValidatingAdmissionPolicyBinding"),
            ("certificates", "CertificateSigningRequest"),
            ("core", "ComponentStatus"),
            ("core", "Namespace"),
            ("core", "Node"),
            ("core", "PersistentVolume"),
            ("networking", "IngressClass"),
            ("networking", "IPAddress"),
            ("networking", "ServiceCIDR"),
            ("node", "RuntimeClass"),
            ("rbac.authorization", "ClusterRole"),
            ("rbac.authorization", "ClusterRoleBinding"),
            ("scheduling", "PriorityClass"),
            ("storage", "CSIDriver"),
            ("storage", "CSINode"),
            ("storage", "StorageClass"),
            ("storage", "VolumeAttachment"),
        ];
        CLUSTER_SCOPED.contains(&(self.group, kind))
    }

    /// The PROJECT entry of the group's `kind` in `version`, as kubebuilder records one of
    /// Kubernetes' kinds (`core: true`, the type's module as `path`, no API type), without a
    /// controller or webhooks yet.
    pub fn resource(&self, version: &str, kind: &str) -> super::Resource {
        super::Resource {
            api: None,
            controller: false,
            controllers: Vec::new(),
            core: true,
            domain: self.domain.to_owned(),
            external: false,
            group: self.group.to_owned(),
            kind: kind.to_owned(),
            path: Some(self.module_path(version)),
            plural: None,
            version: version.to_owned(),
            webhooks: None,
        }
    }

    /// The Rust module of the group's `version` in k8s-openapi: `k8s_openapi::api::apps::v1`.
    pub fn module_path(&self, version: &str) -> String {
        format!("k8s_openapi::api::{}::{version}", self.module)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_name_their_api_group_and_module() {
        let apps = core_group("apps").unwrap();
        assert_eq!(apps.api_group(), "apps");
        assert_eq!(apps.module_path("v1"), "k8s_openapi::api::apps::v1");
        assert_eq!(core_group("core").unwrap().api_group(), "");
        let rbac = core_group("rbac.authorization").unwrap();
        assert_eq!(rbac.api_group(), "rbac.authorization.k8s.io");
        assert_eq!(rbac.module_path("v1"), "k8s_openapi::api::rbac::v1");
        assert!(core_group("app").is_none());
    }
}
