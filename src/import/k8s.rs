//! The k8s-openapi types an import recognises by their schema: controller-gen inlines a Go
//! field of type `metav1.Condition` as Condition's full schema, so a node equal to it (with
//! only a field's own keywords added) was that type. The schemas are webop's own
//! (`webop::schema`), so what is recognised is what `webop manifests` gives back.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::schema::{JSONSchemaProps, Schema};

/// A recognisable type: its Rust path and its schema without a description.
pub struct Known {
    pub path: &'static str,
    pub schema: Map<String, Value>,
    pub description: Option<String>,
}

macro_rules! known {
    ($($module:ident :: $ty:ident),* $(,)?) => {
        fn all() -> Vec<(&'static str, fn() -> JSONSchemaProps)> {
            vec![$((
                concat!("k8s_openapi::", known!(@path $module), "::", stringify!($ty)),
                <known!(@type $module $ty) as Schema>::schema,
            )),*]
        }
    };
    (@path meta) => { "apimachinery::pkg::apis::meta::v1" };
    (@path core) => { "api::core::v1" };
    (@path intstr) => { "apimachinery::pkg::util::intstr" };
    (@path resource) => { "apimachinery::pkg::api::resource" };
    (@type meta $ty:ident) => { k8s_openapi::apimachinery::pkg::apis::meta::v1::$ty };
    (@type core $ty:ident) => { k8s_openapi::api::core::v1::$ty };
    (@type intstr $ty:ident) => { k8s_openapi::apimachinery::pkg::util::intstr::$ty };
    (@type resource $ty:ident) => { k8s_openapi::apimachinery::pkg::api::resource::$ty };
}

// The known types controller-gen overrides, then the types of k8s.io/api operators embed most.
// `MicroTime` has `Time`'s schema and `RawExtension` `serde_json::Map`'s: the first wins.
known![
    meta::Time,
    resource::Quantity,
    intstr::IntOrString,
    meta::Condition,
    meta::LabelSelector,
    meta::LabelSelectorRequirement,
    core::ObjectReference,
    core::LocalObjectReference,
    core::TypedLocalObjectReference,
    core::TypedObjectReference,
    core::SecretKeySelector,
    core::ConfigMapKeySelector,
    core::SecretReference,
    core::ObjectFieldSelector,
    core::PodTemplateSpec,
    core::PodSpec,
    core::Container,
    core::ContainerPort,
    core::ResourceRequirements,
    core::ResourceClaim,
    core::EnvVar,
    core::EnvVarSource,
    core::EnvFromSource,
    core::Toleration,
    core::Affinity,
    core::NodeSelector,
    core::NodeSelectorTerm,
    core::NodeSelectorRequirement,
    core::TopologySpreadConstraint,
    core::Volume,
    core::VolumeMount,
    core::KeyToPath,
    core::ConfigMapVolumeSource,
    core::SecretVolumeSource,
    core::EmptyDirVolumeSource,
    core::Probe,
    core::SecurityContext,
    core::PodSecurityContext,
    core::Capabilities,
    core::SeccompProfile,
    core::SELinuxOptions,
    core::HostAlias,
    core::PodDNSConfig,
    core::ServicePort,
    core::ServiceSpec,
    core::PersistentVolumeClaim,
    core::PersistentVolumeClaimSpec,
    core::PersistentVolumeClaimTemplate,
    core::Taint,
];

/// Every recognisable type, the largest schemas first (so `Quantity`, an `IntOrString` with a
/// pattern, is found before `IntOrString`).
pub fn known() -> &'static [Known] {
    static KNOWN: OnceLock<Vec<Known>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut known: Vec<Known> = all()
            .into_iter()
            .map(|(path, schema)| {
                let Value::Object(mut schema) = serde_json::to_value(schema()).expect("JSON")
                else {
                    unreachable!("a schema is an object")
                };
                let description = schema
                    .remove("description")
                    .and_then(|d| d.as_str().map(str::to_owned));
                Known {
                    path,
                    schema,
                    description,
                }
            })
            .collect();
        // Stable: among equal sizes the list's order stands.
        known.sort_by_key(|k| {
            std::cmp::Reverse(serde_json::to_string(&k.schema).map_or(0, |s| s.len()))
        });
        known
    })
}

/// The module aliases generated files use, as the scaffolded types do.
pub const ALIASES: &[(&str, &str)] = &[
    ("k8s_openapi::api::core::v1::", "corev1"),
    ("k8s_openapi::apimachinery::pkg::apis::meta::v1::", "metav1"),
    ("k8s_openapi::apimachinery::pkg::util::intstr::", "intstr"),
    (
        "k8s_openapi::apimachinery::pkg::api::resource::",
        "resource",
    ),
];
