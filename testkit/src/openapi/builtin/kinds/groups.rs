//! The kinds of the other groups: coordination, events, RBAC, networking, policy and
//! apiextensions.

use k8s_openapi::api::{core, networking, policy, rbac};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, MicroTime, Time};

use super::{Kind, object, open, webop};

pub(super) const KINDS: &[Kind] = &[
    Kind {
        group: "coordination.k8s.io",
        version: "v1",
        kind: "Lease",
        description: "Lease defines a lease concept.",
        required: &[],
        fields: || {
            vec![(
                "spec",
                "spec contains the specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                object(vec![
                    (
                        "acquireTime",
                        "acquireTime is a time when the current lease was acquired.",
                        webop::<MicroTime>(),
                    ),
                    (
                        "holderIdentity",
                        "holderIdentity contains the identity of the holder of a current lease.",
                        webop::<String>(),
                    ),
                    (
                        "leaseDurationSeconds",
                        "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.",
                        webop::<i32>(),
                    ),
                    (
                        "leaseTransitions",
                        "leaseTransitions is the number of transitions of a lease between holders.",
                        webop::<i32>(),
                    ),
                    (
                        "preferredHolder",
                        "preferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.",
                        webop::<String>(),
                    ),
                    (
                        "renewTime",
                        "renewTime is a time when the current holder of a lease has last updated the lease.",
                        webop::<MicroTime>(),
                    ),
                    (
                        "strategy",
                        "strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease.",
                        webop::<String>(),
                    ),
                ]),
            )]
        },
    },
    Kind {
        group: "events.k8s.io",
        version: "v1",
        kind: "Event",
        description: "Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.",
        required: &["eventTime"],
        fields: || {
            vec![
                (
                    "action",
                    "action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.",
                    webop::<String>(),
                ),
                (
                    "deprecatedCount",
                    "deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.",
                    webop::<i32>(),
                ),
                (
                    "deprecatedFirstTimestamp",
                    "deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.",
                    webop::<Time>(),
                ),
                (
                    "deprecatedLastTimestamp",
                    "deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.",
                    webop::<Time>(),
                ),
                (
                    "deprecatedSource",
                    "deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.",
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
                    "eventTime",
                    "eventTime is the time when this Event was first observed. It is required.",
                    webop::<MicroTime>(),
                ),
                (
                    "note",
                    "note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.",
                    webop::<String>(),
                ),
                (
                    "reason",
                    "reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.",
                    webop::<String>(),
                ),
                (
                    "regarding",
                    "regarding contains the object this Event is about.",
                    webop::<core::v1::ObjectReference>(),
                ),
                (
                    "related",
                    "related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.",
                    webop::<core::v1::ObjectReference>(),
                ),
                (
                    "reportingController",
                    "reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.",
                    webop::<String>(),
                ),
                (
                    "reportingInstance",
                    "reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.",
                    webop::<String>(),
                ),
                (
                    "series",
                    "series is data about the Event series this event represents or nil if it's a singleton Event.",
                    object(vec![
                        (
                            "count",
                            "count is the number of occurrences in this series up to the last heartbeat time.",
                            webop::<i32>(),
                        ),
                        (
                            "lastObservedTime",
                            "lastObservedTime is the time when last Event from the series was seen before last heartbeat.",
                            webop::<MicroTime>(),
                        ),
                    ]),
                ),
                (
                    "type",
                    "type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.",
                    webop::<String>(),
                ),
            ]
        },
    },
    Kind {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "Role",
        description: "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
        required: &[],
        fields: || {
            vec![(
                "rules",
                "rules holds all the PolicyRules for this Role",
                webop::<Vec<rbac::v1::PolicyRule>>(),
            )]
        },
    },
    Kind {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "RoleBinding",
        description: "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.",
        required: &["roleRef"],
        fields: || {
            vec![
                (
                    "roleRef",
                    "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
                    webop::<rbac::v1::RoleRef>(),
                ),
                (
                    "subjects",
                    "Subjects holds references to the objects the role applies to.",
                    webop::<Vec<rbac::v1::Subject>>(),
                ),
            ]
        },
    },
    Kind {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRole",
        description: "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
        required: &[],
        fields: || {
            vec![
                (
                    "aggregationRule",
                    "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.",
                    object(vec![(
                        "clusterRoleSelectors",
                        "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
                        webop::<Vec<LabelSelector>>(),
                    )]),
                ),
                (
                    "rules",
                    "Rules holds all the PolicyRules for this ClusterRole",
                    webop::<Vec<rbac::v1::PolicyRule>>(),
                ),
            ]
        },
    },
    Kind {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "ClusterRoleBinding",
        description: "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
        required: &["roleRef"],
        fields: || {
            vec![
                (
                    "roleRef",
                    "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
                    webop::<rbac::v1::RoleRef>(),
                ),
                (
                    "subjects",
                    "Subjects holds references to the objects the role applies to.",
                    webop::<Vec<rbac::v1::Subject>>(),
                ),
            ]
        },
    },
    Kind {
        group: "networking.k8s.io",
        version: "v1",
        kind: "Ingress",
        description: "Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend. An Ingress can be configured to give services externally-reachable urls, load balance traffic, terminate SSL, offer name based virtual hosting etc.",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "spec is the desired state of the Ingress. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    webop::<networking::v1::IngressSpec>(),
                ),
                (
                    "status",
                    "status is the current state of the Ingress. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "policy",
        version: "v1",
        kind: "PodDisruptionBudget",
        description: "PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods",
        required: &[],
        fields: || {
            vec![
                (
                    "spec",
                    "Specification of the desired behavior of the PodDisruptionBudget.",
                    webop::<policy::v1::PodDisruptionBudgetSpec>(),
                ),
                (
                    "status",
                    "Most recently observed status of the PodDisruptionBudget.",
                    open(),
                ),
            ]
        },
    },
    Kind {
        group: "apiextensions.k8s.io",
        version: "v1",
        kind: "CustomResourceDefinition",
        description: "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
        required: &["spec"],
        fields: || {
            vec![
                (
                    "spec",
                    "spec describes how the user wants the resources to appear",
                    open(),
                ),
                (
                    "status",
                    "status indicates the actual state of the CustomResourceDefinition",
                    open(),
                ),
            ]
        },
    },
];
