//! The apimachinery definitions every group-version's document refers to (`ObjectMeta`,
//! `ListMeta`, `Status`, `Patch`, ...), written here because `webop::schema` models
//! `ObjectMeta` as the opaque object a CRD embeds, not as the API server publishes it.
//! Descriptions are Kubernetes' own (first paragraphs).

use serde_json::{Map, Value, json};

/// Where v3 documents keep their schemas; references point here.
pub const V3_PREFIX: &str = "#/components/schemas/";

pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
pub const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
pub const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
pub const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
pub const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
pub const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
pub const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const OWNER_REFERENCE: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference";
const MANAGED_FIELDS_ENTRY: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry";

pub const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
pub const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
pub const METADATA_DOC: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DOC: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// A `$ref` to a v3 schema, with the use site's description beside it (as the API server writes
/// references).
pub fn reference(name: &str, description: &str) -> Value {
    json!({"$ref": format!("{V3_PREFIX}{name}"), "description": description})
}

/// `apiVersion` and `kind`, as every top-level kind declares them.
pub fn type_meta_properties() -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert(
        "apiVersion".into(),
        json!({"type": "string", "description": API_VERSION_DOC}),
    );
    properties.insert(
        "kind".into(),
        json!({"type": "string", "description": KIND_DOC}),
    );
    properties
}

/// `metadata` of a top-level kind.
pub fn object_metadata(description: &str) -> Value {
    let mut metadata = reference(OBJECT_META, description);
    metadata["default"] = json!({});
    metadata
}

/// The list kind of `kind`, whose items are the definition `item`.
pub fn list_definition(kind: &str, item: &str, gvk: (&str, &str)) -> Value {
    let (group, version) = gvk;
    let mut properties = type_meta_properties();
    properties.insert(
        "items".into(),
        json!({"type": "array", "description": format!("List of {kind} objects."),
               "items": {"$ref": format!("{V3_PREFIX}{item}")}}),
    );
    let mut metadata = reference(LIST_META, LIST_METADATA_DOC);
    metadata["default"] = json!({});
    properties.insert("metadata".into(), metadata);
    json!({
        "description": format!("{kind}List is a list of {kind} objects."),
        "type": "object",
        "required": ["items"],
        "properties": properties,
        "x-kubernetes-group-version-kind": [{"group": group, "kind": format!("{kind}List"), "version": version}],
    })
}

fn string(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

fn time(description: &str) -> Value {
    json!({"type": "string", "format": "date-time", "description": description})
}

fn int64(description: &str) -> Value {
    json!({"type": "integer", "format": "int64", "description": description})
}

fn string_map(description: &str) -> Value {
    json!({"type": "object", "additionalProperties": {"type": "string"}, "description": description})
}

fn object_meta() -> Value {
    json!({
        "description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
        "type": "object",
        "properties": {
            "annotations": string_map("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations"),
            "creationTimestamp": time("CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
            "deletionGracePeriodSeconds": int64("Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only."),
            "deletionTimestamp": time("DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client.\n\nPopulated by the system when a graceful deletion is requested. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
            "finalizers": {
                "type": "array", "items": {"type": "string"},
                "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge",
                "description": "Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.",
            },
            "generateName": string("GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is used, the name returned to the client will be different than the name passed. This value will also be combined with a unique suffix.\n\nApplied only if Name is not specified. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#idempotency"),
            "generation": int64("A sequence number representing a specific generation of the desired state. Populated by the system. Read-only."),
            "labels": string_map("Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels"),
            "managedFields": {
                "type": "array", "items": {"$ref": format!("{V3_PREFIX}{MANAGED_FIELDS_ENTRY}")},
                "x-kubernetes-list-type": "atomic",
                "description": "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field.",
            },
            "name": string("Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
            "namespace": string("Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the \"default\" namespace, but \"default\" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty.\n\nMust be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces"),
            "ownerReferences": {
                "type": "array", "items": {"$ref": format!("{V3_PREFIX}{OWNER_REFERENCE}")},
                "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"],
                "x-kubernetes-patch-merge-key": "uid", "x-kubernetes-patch-strategy": "merge",
                "description": "List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.",
            },
            "resourceVersion": string("An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server.\n\nPopulated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency"),
            "selfLink": string("Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
            "uid": string("UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations.\n\nPopulated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
        },
    })
}

fn owner_reference() -> Value {
    json!({
        "description": "OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.",
        "type": "object",
        "required": ["apiVersion", "kind", "name", "uid"],
        "properties": {
            "apiVersion": string("API version of the referent."),
            "blockOwnerDeletion": {"type": "boolean", "description": "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. Defaults to false."},
            "controller": {"type": "boolean", "description": "If true, this reference points to the managing controller."},
            "kind": string("Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
            "name": string("Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"),
            "uid": string("UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids"),
        },
        "x-kubernetes-map-type": "atomic",
    })
}

fn managed_fields_entry() -> Value {
    json!({
        "description": "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
        "type": "object",
        "properties": {
            "apiVersion": string("APIVersion defines the version of this resource that this field set applies to. The format is \"group/version\" just like the top-level APIVersion field. It is necessary to track the version of a field set because it cannot be automatically converted."),
            "fieldsType": string("FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""),
            "fieldsV1": {"type": "object", "description": "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type."},
            "manager": string("Manager is an identifier of the workflow managing these fields."),
            "operation": string("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
            "subresource": string("Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource. The value of this field is used to distinguish between managers, even if they share the same name."),
            "time": time("Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be updated if a field is added, the manager changes any of the owned fields value or removes a field. The timestamp does not update when a field is removed from the entry because another manager took it over."),
        },
    })
}

fn list_meta() -> Value {
    json!({
        "description": "ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.",
        "type": "object",
        "properties": {
            "continue": string("continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects."),
            "remainingItemCount": int64("remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization."),
            "resourceVersion": string("String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only."),
            "selfLink": string("Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
        },
    })
}

fn status() -> Value {
    let mut properties = type_meta_properties();
    for (name, schema) in [
        (
            "code",
            json!({"type": "integer", "format": "int32", "description": "Suggested HTTP return code for this status, 0 if not set."}),
        ),
        (
            "details",
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "description": "Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type."}),
        ),
        (
            "message",
            string("A human-readable description of the status of this operation."),
        ),
        ("metadata", reference(LIST_META, LIST_METADATA_DOC)),
        (
            "reason",
            string(
                "A machine-readable description of why this operation is in the \"Failure\" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.",
            ),
        ),
        (
            "status",
            string(
                "Status of the operation. One of: \"Success\" or \"Failure\". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
            ),
        ),
    ] {
        properties.insert(name.into(), schema);
    }
    json!({
        "description": "Status is a return value for calls that don't return other objects.",
        "type": "object",
        "properties": properties,
        "x-kubernetes-group-version-kind": [{"group": "", "kind": "Status", "version": "v1"}],
    })
}

fn delete_options() -> Value {
    let mut properties = type_meta_properties();
    for (name, schema) in [
        (
            "dryRun",
            json!({"type": "array", "items": {"type": "string"}, "description": "When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed"}),
        ),
        (
            "gracePeriodSeconds",
            int64(
                "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.",
            ),
        ),
        (
            "preconditions",
            json!({"type": "object", "description": "Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.",
                   "properties": {"resourceVersion": string("Specifies the target ResourceVersion"), "uid": string("Specifies the target UID.")}}),
        ),
        (
            "propagationPolicy",
            string(
                "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
            ),
        ),
    ] {
        properties.insert(name.into(), schema);
    }
    json!({
        "description": "DeleteOptions may be provided when deleting an API object.",
        "type": "object",
        "properties": properties,
    })
}

/// Every shared definition, by name.
pub fn definitions() -> Vec<(&'static str, Value)> {
    vec![
        (OBJECT_META, object_meta()),
        (OWNER_REFERENCE, owner_reference()),
        (MANAGED_FIELDS_ENTRY, managed_fields_entry()),
        (LIST_META, list_meta()),
        (STATUS, status()),
        (DELETE_OPTIONS, delete_options()),
        (
            PATCH,
            json!({"description": "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.", "type": "object"}),
        ),
        (
            INT_OR_STRING,
            json!({"description": "IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.", "type": "string", "format": "int-or-string"}),
        ),
        (
            QUANTITY,
            json!({"description": "Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.", "oneOf": [{"type": "string"}, {"type": "number"}]}),
        ),
    ]
}
