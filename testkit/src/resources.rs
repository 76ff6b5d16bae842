//! What the server knows about each resource type: names, scope, subresources, and for custom
//! resources the schema of every served version. Built-in types come from a fixed catalogue of
//! the kinds operators touch; custom types are derived from installed CRD objects.

use std::sync::Arc;

use serde_json::{Value, json};

use super::scale::ScalePaths;

mod custom;

pub use custom::from_crd;

/// A resource type served by the test API server.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceType {
    /// API group, empty for the core group.
    pub group: String,
    /// Served versions, preferred (storage) version first.
    pub versions: Vec<String>,
    /// Kind, e.g. `ConfigMap`.
    pub kind: String,
    /// Plural resource name, e.g. `configmaps`.
    pub plural: String,
    /// Singular resource name.
    pub singular: String,
    /// Short names (`cm`).
    pub short_names: Vec<String>,
    /// Categories (`all`).
    pub categories: Vec<String>,
    /// Namespaced or cluster-scoped.
    pub namespaced: bool,
    /// Has a `/status` subresource whose writes are separated from the main resource.
    pub status_subresource: bool,
    /// Has a `/scale` subresource (custom resources whose CRD declares one).
    pub scale: Option<ScalePaths>,
    /// `metadata.generation` is maintained (bumped on spec changes).
    pub has_generation: bool,
    /// Extra field selectors beyond `metadata.name` and `metadata.namespace`.
    pub selectable_fields: Vec<String>,
    /// For custom resources: the schema of each version (`openAPIV3Schema`), by version name.
    pub schemas: Vec<(String, Arc<Value>)>,
    /// For custom resources: each version's `additionalPrinterColumns`, by version name.
    pub printer_columns: Vec<(String, Arc<Value>)>,
    /// Whether this type comes from a CRD.
    pub custom: bool,
}

impl ResourceType {
    /// An object as served at `version`: `apiVersion` and `kind` set. Custom resources are
    /// stored once and served at every version unchanged (the CRD `None` conversion strategy).
    pub fn served(&self, mut object: Value, version: &str) -> Value {
        if let Some(map) = object.as_object_mut() {
            map.insert("apiVersion".into(), json!(self.api_version(version)));
            map.insert("kind".into(), json!(self.kind));
        }
        object
    }

    /// `apps/v1` or `v1` for a version of this type.
    pub fn api_version(&self, version: &str) -> String {
        if self.group.is_empty() {
            version.to_string()
        } else {
            format!("{}/{version}", self.group)
        }
    }

    /// The storage (and preferred) version.
    pub fn storage_version(&self) -> &str {
        &self.versions[0]
    }

    /// The openAPIV3Schema of a version of a custom resource.
    pub fn schema(&self, version: &str) -> Option<&Value> {
        self.schemas
            .iter()
            .find(|(v, _)| v == version)
            .map(|(_, s)| s.as_ref())
    }

    /// The `additionalPrinterColumns` of a version of a custom resource.
    pub fn printer_columns(&self, version: &str) -> Option<&Value> {
        self.printer_columns
            .iter()
            .find(|(v, _)| v == version)
            .map(|(_, c)| c.as_ref())
    }

    /// Whether `field` may be used in a field selector.
    pub fn selectable(&self, field: &str) -> bool {
        matches!(field, "metadata.name" | "metadata.namespace")
            || self.selectable_fields.iter().any(|f| f == field)
    }

    /// The API server's message for a field selector on a field this type does not support. It
    /// depends on the type's field label conversion: custom resources and the kinds with their
    /// own (pods, secrets, events, namespaces, nodes, services, jobs) have their own words; the
    /// others get apimachinery's default.
    pub fn unsupported_field_label(&self, field: &str) -> String {
        let own_conversion = self.custom
            || matches!(
                (self.group.as_str(), self.plural.as_str()),
                (
                    "",
                    "pods" | "secrets" | "events" | "namespaces" | "nodes" | "services"
                ) | ("events.k8s.io", "events")
            );
        if self.group == "batch" && self.plural == "jobs" {
            format!("field label {field:?} not supported for Job")
        } else if own_conversion {
            format!("field label not supported: {field}")
        } else {
            format!(
                "{field:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
            )
        }
    }
}

struct Builtin {
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
    namespaced: bool,
    status: bool,
    generation: bool,
    fields: &'static [&'static str],
}

const fn kind(
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
    namespaced: bool,
) -> Builtin {
    Builtin {
        group,
        version,
        kind,
        plural,
        short,
        namespaced,
        status: false,
        generation: false,
        fields: &[],
    }
}

const fn with_status(mut b: Builtin, generation: bool) -> Builtin {
    b.status = true;
    b.generation = generation;
    b
}

const fn with_fields(mut b: Builtin, fields: &'static [&'static str]) -> Builtin {
    b.fields = fields;
    b
}

const CORE_EVENT_FIELDS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
];

const EVENTS_V1_FIELDS: &[&str] = &[
    "regarding.kind",
    "regarding.namespace",
    "regarding.name",
    "regarding.uid",
    "regarding.apiVersion",
    "reason",
    "reportingController",
    "type",
];

const POD_FIELDS: &[&str] = &[
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
];

const NAMESPACE_FIELDS: &[&str] = &["status.phase"];
const NODE_FIELDS: &[&str] = &["spec.unschedulable"];
const SERVICE_FIELDS: &[&str] = &["spec.clusterIP", "spec.type"];
const JOB_FIELDS: &[&str] = &["status.successful"];

/// The built-in kinds an operator touches.
const BUILTINS: &[Builtin] = &[
    with_fields(
        with_status(
            kind("", "v1", "Namespace", "namespaces", &["ns"], false),
            false,
        ),
        NAMESPACE_FIELDS,
    ),
    kind("", "v1", "ConfigMap", "configmaps", &["cm"], true),
    with_fields(kind("", "v1", "Secret", "secrets", &[], true), &["type"]),
    kind("", "v1", "ServiceAccount", "serviceaccounts", &["sa"], true),
    with_fields(
        with_status(kind("", "v1", "Service", "services", &["svc"], true), false),
        SERVICE_FIELDS,
    ),
    with_fields(
        with_status(kind("", "v1", "Pod", "pods", &["po"], true), false),
        POD_FIELDS,
    ),
    with_status(
        kind(
            "",
            "v1",
            "PersistentVolumeClaim",
            "persistentvolumeclaims",
            &["pvc"],
            true,
        ),
        false,
    ),
    kind("", "v1", "Endpoints", "endpoints", &["ep"], true),
    with_fields(
        kind("", "v1", "Event", "events", &["ev"], true),
        CORE_EVENT_FIELDS,
    ),
    with_fields(
        with_status(kind("", "v1", "Node", "nodes", &["no"], false), false),
        NODE_FIELDS,
    ),
    with_status(
        kind("apps", "v1", "Deployment", "deployments", &["deploy"], true),
        true,
    ),
    with_status(
        kind("apps", "v1", "StatefulSet", "statefulsets", &["sts"], true),
        true,
    ),
    with_status(
        kind("apps", "v1", "DaemonSet", "daemonsets", &["ds"], true),
        true,
    ),
    with_status(
        kind("apps", "v1", "ReplicaSet", "replicasets", &["rs"], true),
        true,
    ),
    with_fields(
        with_status(kind("batch", "v1", "Job", "jobs", &[], true), true),
        JOB_FIELDS,
    ),
    with_status(
        kind("batch", "v1", "CronJob", "cronjobs", &["cj"], true),
        true,
    ),
    kind("coordination.k8s.io", "v1", "Lease", "leases", &[], true),
    with_fields(
        kind("events.k8s.io", "v1", "Event", "events", &["ev"], true),
        EVENTS_V1_FIELDS,
    ),
    kind(
        "rbac.authorization.k8s.io",
        "v1",
        "Role",
        "roles",
        &[],
        true,
    ),
    kind(
        "rbac.authorization.k8s.io",
        "v1",
        "RoleBinding",
        "rolebindings",
        &[],
        true,
    ),
    kind(
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRole",
        "clusterroles",
        &[],
        false,
    ),
    kind(
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleBinding",
        "clusterrolebindings",
        &[],
        false,
    ),
    with_status(
        kind(
            "networking.k8s.io",
            "v1",
            "Ingress",
            "ingresses",
            &["ing"],
            true,
        ),
        true,
    ),
    with_status(
        kind(
            "policy",
            "v1",
            "PodDisruptionBudget",
            "poddisruptionbudgets",
            &["pdb"],
            true,
        ),
        true,
    ),
    with_status(
        kind(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition",
            "customresourcedefinitions",
            &["crd", "crds"],
            false,
        ),
        true,
    ),
];

/// The built-in resource types.
pub fn builtins() -> Vec<ResourceType> {
    BUILTINS
        .iter()
        .map(|b| ResourceType {
            group: b.group.to_string(),
            versions: vec![b.version.to_string()],
            kind: b.kind.to_string(),
            plural: b.plural.to_string(),
            singular: b.kind.to_lowercase(),
            short_names: b.short.iter().map(ToString::to_string).collect(),
            categories: Vec::new(),
            namespaced: b.namespaced,
            status_subresource: b.status,
            scale: None,
            has_generation: b.generation,
            selectable_fields: b.fields.iter().map(ToString::to_string).collect(),
            schemas: Vec::new(),
            printer_columns: Vec::new(),
            custom: false,
        })
        .collect()
}
