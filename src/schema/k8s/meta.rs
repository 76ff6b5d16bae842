//! The apimachinery meta/v1 types whose schemas webop writes by hand, with their Go doc comments
//! as controller-gen carries them (line breaks included), so that they come out byte-identical.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, Time};

use crate::schema::std_types::array;
use crate::schema::{Definitions, JSONSchemaProps, Marker, Schema, StructSchema};

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
