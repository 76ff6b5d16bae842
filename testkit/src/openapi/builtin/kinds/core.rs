//! The core (`v1`) kinds.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use k8s_openapi::api::core;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use serde_json::json;

use super::{Kind, object, open, webop};

pub(super) const KINDS: &[Kind] = &[
    Kind {
        group: "",
        version: "v1",
        kind: "ConfigMap",
        description: "ConfigMap holds configuration data for pods to consume.",
        required: &[],
        fields: || {
            vec![
                (
                    "binaryData",
                    "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process.",
                    webop::<BTreeMap<String, ByteString>>(),
                ),
                (
                    "data",
                    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
                    webop::<BTreeMap<String, String>>(),
                ),
                (
                    "immutable",
                    "Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
                    webop::<bool>(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Secret",
        description: "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
        required: &[],
        fields: || {
            vec![
                (
                    "data",
                    "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
                    webop::<BTreeMap<String, ByteString>>(),
                ),
                (
                    "immutable",
                    "Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
                    webop::<bool>(),
                ),
                (
                    "stringData",
                    "stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.",
                    webop::<BTreeMap<String, String>>(),
                ),
                (
                    "type",
                    "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
                    webop::<String>(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Namespace",
        description: "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    object(vec![(
                        "finalizers",
                        "Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
                        webop::<Vec<String>>(),
                    )]),
                ),
                (
                    "status",
                    "Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "ServiceAccount",
        description: "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
        required: &[],
        fields: || {
            vec![
                (
                    "automountServiceAccountToken",
                    "AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.",
                    webop::<bool>(),
                ),
                (
                    "imagePullSecrets",
                    "ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod",
                    webop::<Vec<core::v1::LocalObjectReference>>(),
                ),
                (
                    "secrets",
                    "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
                    webop::<Vec<core::v1::ObjectReference>>(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Service",
        description: "Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Spec defines the behavior of a service. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<core::v1::ServiceSpec>(),
                ),
                (
                    "status",
                    "Most recently observed status of the service. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Pod",
        description: "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<core::v1::PodSpec>(),
                ),
                (
                    "status",
                    "Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "PersistentVolumeClaim",
        description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "spec defines the desired characteristics of a volume requested by a pod author. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
                    webop::<core::v1::PersistentVolumeClaimSpec>(),
                ),
                (
                    "status",
                    "status represents the current information/status of a persistent volume claim. Read-only. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
                    webop::<core::v1::PersistentVolumeClaimStatus>(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Endpoints",
        description: "Endpoints is a collection of endpoints that implement the actual service. Endpoints is a legacy API and does not contain information about all Service features. Use discoveryv1.EndpointSlice for complete information about Service endpoints.",
        required: &[],
        fields: || {
            vec![(
                "subsets",
                "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share.",
                json!({"type": "array", "items": open(), "x-kubernetes-list-type": "atomic"}),
            )]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Event",
        description: "Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Events should be treated as informative, best-effort, supplemental data.",
        required: &["metadata", "involvedObject"],
        fields: || {
            vec![
                (
                    "action",
                    "What action was taken/failed regarding to the Regarding object.",
                    webop::<String>(),
                ),
                (
                    "count",
                    "The number of times this event has occurred.",
                    webop::<i32>(),
                ),
                (
                    "eventTime",
                    "Time when this Event was first observed.",
                    webop::<MicroTime>(),
                ),
                (
                    "firstTimestamp",
                    "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
                    webop::<Time>(),
                ),
                (
                    "involvedObject",
                    "The object that this event is about.",
                    webop::<core::v1::ObjectReference>(),
                ),
                (
                    "lastTimestamp",
                    "The time at which the most recent occurrence of this event was recorded.",
                    webop::<Time>(),
                ),
                (
                    "message",
                    "A human-readable description of the status of this operation.",
                    webop::<String>(),
                ),
                (
                    "reason",
                    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
                    webop::<String>(),
                ),
                (
                    "related",
                    "Optional secondary object for more complex actions.",
                    webop::<core::v1::ObjectReference>(),
                ),
                (
                    "reportingComponent",
                    "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.",
                    webop::<String>(),
                ),
                (
                    "reportingInstance",
                    "ID of the controller instance, e.g. `kubelet-xyzf`.",
                    webop::<String>(),
                ),
                (
                    "series",
                    "Data about the Event series this event represents or nil if it's a singleton Event.",
                    object(vec![
                        (
                            "count",
                            "Number of occurrences in this series up to the last heartbeat time",
                            webop::<i32>(),
                        ),
                        (
                            "lastObservedTime",
                            "Time of the last occurrence observed",
                            webop::<MicroTime>(),
                        ),
                    ]),
                ),
                (
                    "source",
                    "The component reporting this event. Should be a short machine understandable string.",
                    object(vec![
                        (
                            "component",
                            "Component from which the event is generated.",
                            webop::<String>(),
                        ),
                        (
                            "host",
                            "Node name on which the event is generated.",
                            webop::<String>(),
                        ),
                    ]),
                ),
                (
                    "type",
                    "Type of this event (Normal, Warning), new types could be added in the future",
                    webop::<String>(),
                ),
            ]
        },
    },
    Kind {
        group: "",
        version: "v1",
        kind: "Node",
        description: "Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Spec defines the behavior of a node. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
                (
                    "status",
                    "Most recently observed status of the node. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
];
