//! The workload kinds: `apps/v1` and `batch/v1`.

use k8s_openapi::api::{apps, batch, core};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::{Kind, object, open, webop};

pub(super) const KINDS: &[Kind] = &[
    Kind {
        group: "apps",
        version: "v1",
        kind: "Deployment",
        description: "Deployment enables declarative updates for Pods and ReplicaSets.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Specification of the desired behavior of the Deployment.",
                    webop::<apps::v1::DeploymentSpec>(),
                ),
                (
                    "status",
                    "Most recently observed status of the Deployment.",
                    webop::<apps::v1::DeploymentStatus>(),
                ),
            ]
        },
    },
    Kind {
        group: "apps",
        version: "v1",
        kind: "StatefulSet",
        description: "StatefulSet represents a set of pods with consistent identities. Identities are defined as:\n  - Network: A single stable DNS and hostname.\n  - Storage: As many VolumeClaims as requested.\n\nThe StatefulSet guarantees that a given network identity will always map to the same storage identity.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Spec defines the desired identities of pods in this set.",
                    webop::<apps::v1::StatefulSetSpec>(),
                ),
                (
                    "status",
                    "Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.",
                    webop::<apps::v1::StatefulSetStatus>(),
                ),
            ]
        },
    },
    Kind {
        group: "apps",
        version: "v1",
        kind: "DaemonSet",
        description: "DaemonSet represents the configuration of a daemon set.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "The desired behavior of this daemon set. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<apps::v1::DaemonSetSpec>(),
                ),
                (
                    "status",
                    "The current status of this daemon set. This data may be out of date by some window of time. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "apps",
        version: "v1",
        kind: "ReplicaSet",
        description: "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Spec defines the specification of the desired behavior of the ReplicaSet. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<apps::v1::ReplicaSetSpec>(),
                ),
                (
                    "status",
                    "Status is the most recently observed status of the ReplicaSet. This data may be out of date by some window of time. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "batch",
        version: "v1",
        kind: "Job",
        description: "Job represents the configuration of a single job.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Specification of the desired behavior of a job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<batch::v1::JobSpec>(),
                ),
                (
                    "status",
                    "Current status of a job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<batch::v1::JobStatus>(),
                ),
            ]
        },
    },
    Kind {
        group: "batch",
        version: "v1",
        kind: "CronJob",
        description: "CronJob represents the configuration of a single cron job.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Specification of the desired behavior of a cron job, including the schedule. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<batch::v1::CronJobSpec>(),
                ),
                (
                    "status",
                    "Current status of a cron job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    object(vec![
                        (
                            "active",
                            "A list of pointers to currently running jobs.",
                            webop::<Vec<core::v1::ObjectReference>>(),
                        ),
                        (
                            "lastScheduleTime",
                            "Information when was the last time the job was successfully scheduled.",
                            webop::<Time>(),
                        ),
                        (
                            "lastSuccessfulTime",
                            "Information when was the last time the job successfully completed.",
                            webop::<Time>(),
                        ),
                    ]),
                ),
            ]
        },
    },
];
