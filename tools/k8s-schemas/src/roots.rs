//! The k8s-openapi types webop ships schemas for: these roots and every type they reference.
//! Each root must exist in every k8s-openapi version webop supports (1.33 to 1.37); the types
//! they reach may not, and are gated by version in the generated code.

use k8s_openapi::api::{apps, autoscaling, batch, core, networking, policy, rbac};
use k8s_openapi::apimachinery::pkg::apis::meta;
use schemars::SchemaGenerator;

/// A root: its k8s-openapi schema name is what `SchemaGenerator` registers.
macro_rules! roots {
    ($($ty:path),* $(,)?) => {
        /// Registers every root (and, through them, every type they reference) in `generator`,
        /// and returns the roots' schema names.
        pub fn register(generator: &mut SchemaGenerator) -> Vec<String> {
            let mut names = Vec::new();
            $(
                generator.subschema_for::<$ty>();
                names.push(<$ty as schemars::JsonSchema>::schema_name().into_owned());
            )*
            names
        }

        /// webop's schema of every root, for `verify`.
        #[cfg(feature = "verify")]
        pub fn webop_schemas() -> Vec<(&'static str, webop::schema::JSONSchemaProps)> {
            vec![$((stringify!($ty), <$ty as webop::schema::Schema>::schema())),*]
        }
    };
}

roots! {
    // What status fields and selectors use most.
    meta::v1::Condition,
    meta::v1::LabelSelector,
    core::v1::ObjectReference,
    core::v1::PodTemplateSpec,
    core::v1::PodSpec,
    core::v1::Container,
    core::v1::ResourceRequirements,
    core::v1::EnvVar,
    core::v1::EnvFromSource,
    core::v1::Toleration,
    core::v1::Affinity,
    core::v1::TopologySpreadConstraint,
    core::v1::LocalObjectReference,
    core::v1::TypedLocalObjectReference,
    core::v1::TypedObjectReference,
    core::v1::SecretKeySelector,
    core::v1::ConfigMapKeySelector,
    core::v1::SecretReference,
    core::v1::Volume,
    core::v1::VolumeMount,
    core::v1::Probe,
    core::v1::SecurityContext,
    core::v1::PodSecurityContext,
    core::v1::ServicePort,
    core::v1::ServiceSpec,
    core::v1::PersistentVolumeClaim,
    core::v1::PersistentVolumeClaimSpec,
    core::v1::PersistentVolumeClaimTemplate,
    core::v1::Taint,
    apps::v1::DeploymentSpec,
    apps::v1::DeploymentStatus,
    apps::v1::DeploymentStrategy,
    apps::v1::StatefulSetSpec,
    apps::v1::StatefulSetStatus,
    apps::v1::DaemonSetSpec,
    apps::v1::ReplicaSetSpec,
    batch::v1::JobTemplateSpec,
    batch::v1::JobSpec,
    batch::v1::JobStatus,
    batch::v1::CronJobSpec,
    autoscaling::v2::HorizontalPodAutoscalerSpec,
    autoscaling::v2::HorizontalPodAutoscalerBehavior,
    autoscaling::v2::MetricSpec,
    networking::v1::IngressSpec,
    networking::v1::NetworkPolicySpec,
    policy::v1::PodDisruptionBudgetSpec,
    rbac::v1::PolicyRule,
    rbac::v1::Subject,
    rbac::v1::RoleRef,
}
