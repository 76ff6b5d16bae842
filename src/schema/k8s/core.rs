//! The core/v1 types whose schemas webop writes by hand, with their Go doc comments as
//! controller-gen carries them, so that they come out byte-identical.

use k8s_openapi::api::core::v1::ObjectReference;

use crate::schema::{Definitions, JSONSchemaProps, Marker, Schema, StructSchema};

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
