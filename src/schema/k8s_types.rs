//! `Schema` for the k8s-openapi types CRDs embed, as controller-gen writes them: the types it
//! overrides (`pkg/crd/known_types.go`: Time, Quantity, IntOrString, ObjectMeta, ...) and the
//! ones it derives from their Go source (Condition, ...).

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
    Condition, LabelSelector, MicroTime, ObjectMeta, Time,
};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::std_types::array;
use super::{Definitions, JSONSchemaProps, Marker, Schema, StructSchema, typed};

/// `impl Schema` for a k8s-openapi type: a named Go type, so a reference with a definition.
macro_rules! named {
    ($ty:ty, |$defs:ident| $definition:expr) => {
        impl Schema for $ty {
            fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
                #[allow(unused_variables)]
                defs.named::<Self>(JSONSchemaProps::default(), |$defs| $definition)
            }
        }
    };
}

named!(Time, |defs| typed("string", Some("date-time")));
named!(MicroTime, |defs| typed("string", Some("date-time")));

// Embedded metadata is opaque to a CRD schema: the API server owns its shape.
named!(ObjectMeta, |defs| typed("object", None));

fn int_or_string() -> JSONSchemaProps {
    JSONSchemaProps {
        x_kubernetes_int_or_string: Some(true),
        any_of: Some(vec![typed("integer", None), typed("string", None)]),
        ..JSONSchemaProps::default()
    }
}

named!(IntOrString, |defs| int_or_string());

named!(Quantity, |defs| {
    JSONSchemaProps {
            pattern: Some(
                r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
                    .to_owned(),
            ),
            ..int_or_string()
        }
});

// metav1.Condition, as controller-gen derives it from its Go source and markers.
named!(Condition, |defs| {
    let mut s = StructSchema::new("Condition");
    s.field(
            "lastTransitionTime",
            true,
            Some(
                "lastTransitionTime is the last time the condition transitioned from one status to another.\n\
                 This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.",
            ),
            Time::use_site(defs),
            &[],
        );
    s.field(
        "message",
        true,
        Some(
            "message is a human readable message indicating details about the transition.\n\
                 This may be an empty string.",
        ),
        String::use_site(defs),
        &[Marker::MaxLength(32768)],
    );
    s.field(
            "observedGeneration",
            false,
            Some(
                "observedGeneration represents the .metadata.generation that the condition was set based upon.\n\
                 For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date\n\
                 with respect to the current state of the instance.",
            ),
            i64::use_site(defs),
            &[Marker::Minimum(0.0)],
        );
    s.field(
            "reason",
            true,
            Some(
                "reason contains a programmatic identifier indicating the reason for the condition's last transition.\n\
                 Producers of specific condition types may define expected values and meanings for this field,\n\
                 and whether the values are considered a guaranteed API.\n\
                 The value should be a CamelCase string.\n\
                 This field may not be empty.",
            ),
            String::use_site(defs),
            &[
                Marker::MaxLength(1024),
                Marker::MinLength(1),
                Marker::Pattern("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"),
            ],
        );
    s.field(
        "status",
        true,
        Some("status of the condition, one of True, False, Unknown."),
        String::use_site(defs),
        &[Marker::Enum(&[r#""True""#, r#""False""#, r#""Unknown""#])],
    );
    s.field(
            "type",
            true,
            Some("type of condition in CamelCase or in foo.example.com/CamelCase."),
            String::use_site(defs),
            &[
                Marker::MaxLength(316),
                Marker::Pattern(
                    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
                ),
            ],
        );
    s.finish(
        Some(
            "Condition contains details for one aspect of the current state of this API Resource.",
        ),
        &[],
    )
});

// metav1.LabelSelector, as controller-gen derives it.
named!(LabelSelector, |defs| {
    let mut requirement = StructSchema::new("LabelSelectorRequirement");
    requirement.field(
        "key",
        true,
        Some("key is the label key that the selector applies to."),
        String::use_site(defs),
        &[],
    );
    requirement.field(
        "operator",
        true,
        Some(
            "operator represents a key's relationship to a set of values.\n\
                 Valid operators are In, NotIn, Exists and DoesNotExist.",
        ),
        String::use_site(defs),
        &[],
    );
    requirement.field(
        "values",
        false,
        Some(
            "values is an array of string values. If the operator is In or NotIn,\n\
                 the values array must be non-empty. If the operator is Exists or DoesNotExist,\n\
                 the values array must be empty. This array is replaced during a strategic\n\
                 merge patch.",
        ),
        Vec::<String>::use_site(defs),
        &[Marker::ListType("atomic")],
    );
    let requirement = requirement.finish(
            Some(
                "A label selector requirement is a selector that contains values, a key, and an operator that\n\
                 relates the key and values.",
            ),
            &[],
        );

    let mut s = StructSchema::new("LabelSelector");
    s.field(
            "matchExpressions",
            false,
            Some("matchExpressions is a list of label selector requirements. The requirements are ANDed."),
            array(requirement),
            &[Marker::ListType("atomic")],
        );
    s.field(
            "matchLabels",
            false,
            Some(
                "matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels\n\
                 map is equivalent to an element of matchExpressions, whose key field is \"key\", the\n\
                 operator is \"In\", and the values array contains only \"value\". The requirements are ANDed.",
            ),
            std::collections::BTreeMap::<String, String>::use_site(defs),
            &[],
        );
    s.finish(
            Some(
                "A label selector is a label query over a set of resources. The result of matchLabels and\n\
                 matchExpressions are ANDed. An empty label selector matches no objects. A null\n\
                 label selector matches all objects.",
            ),
            &[Marker::StructType("atomic")],
        )
});

// core/v1 ObjectReference, as controller-gen derives it.
named!(ObjectReference, |defs| {
    let mut s = StructSchema::new("ObjectReference");
    let fields: [(&str, &str); 7] = [
        ("apiVersion", "API version of the referent."),
        (
            "fieldPath",
            "If referring to a piece of an object instead of an entire object, this string\n\
                 should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].\n\
                 For example, if the object reference is to a container within a pod, this would take on a value like:\n\
                 \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered\n\
                 the event) or if no container name is specified \"spec.containers[2]\" (container with\n\
                 index 2 in this pod). This syntax is chosen only to have some well-defined way of\n\
                 referencing a part of an object.",
        ),
        (
            "kind",
            "Kind of the referent.\n\
                 More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        ),
        (
            "name",
            "Name of the referent.\n\
                 More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        ),
        (
            "namespace",
            "Namespace of the referent.\n\
                 More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
        ),
        (
            "resourceVersion",
            "Specific resourceVersion to which this reference is made, if any.\n\
                 More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency",
        ),
        (
            "uid",
            "UID of the referent.\n\
                 More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids",
        ),
    ];
    for (name, doc) in fields {
        s.field(name, false, Some(doc), String::use_site(defs), &[]);
    }
    s.finish(
            Some("ObjectReference contains enough information to let you inspect or modify the referred object."),
            &[Marker::StructType("atomic")],
        )
});
