//! What the merge algorithms need to know about a field's type: whether a list is atomic, a set
//! or a map keyed by some fields, and whether an object is an atomic map. For custom resources
//! this comes from the CRD schema (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`,
//! `x-kubernetes-map-type`); for built-in kinds from the merge keys of the Kubernetes API types.

use serde_json::Value;

/// How a list merges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListKind {
    /// Replaced as a whole (the default for CRD lists).
    Atomic,
    /// A set of scalars, merged by value.
    Set,
    /// A list of objects merged by the values of these key fields.
    Map(Vec<String>),
}

/// The type of a value at some position of an object.
#[derive(Debug, Clone, Copy)]
pub enum Shape<'a> {
    /// A node of a CRD's structural schema.
    Schema(&'a Value),
    /// The root of a CRD's schema, whose `metadata` is `ObjectMeta`.
    SchemaRoot(&'a Value),
    /// A field of a built-in type (or `metadata` of any object), known by name.
    Builtin {
        /// The field name (empty for list items).
        field: &'a str,
        /// Inside a container, where `ports` are keyed by `containerPort`.
        in_container: bool,
    },
    /// Nothing known: maps merge, lists are atomic.
    Free,
}

impl<'a> Shape<'a> {
    /// The shape of a whole object of a type with this schema (or a built-in type).
    pub fn root(schema: Option<&'a Value>) -> Self {
        match schema {
            Some(schema) => Self::SchemaRoot(schema),
            None => Self::Builtin {
                field: "",
                in_container: false,
            },
        }
    }

    /// The shape of an object field.
    pub fn field(self, key: &'a str) -> Self {
        match self {
            Self::Schema(schema) | Self::SchemaRoot(schema) => {
                let embedded =
                    schema.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
                if key == "metadata" && (matches!(self, Self::SchemaRoot(_)) || embedded) {
                    return Self::Builtin {
                        field: "metadata",
                        in_container: false,
                    };
                }
                if let Some(property) = schema.get("properties").and_then(|p| p.get(key)) {
                    Self::Schema(property)
                } else if let Some(additional) =
                    schema.get("additionalProperties").filter(|a| a.is_object())
                {
                    Self::Schema(additional)
                } else {
                    Self::Free
                }
            }
            Self::Builtin { in_container, .. } => Self::Builtin {
                field: key,
                in_container,
            },
            Self::Free => Self::Free,
        }
    }

    /// The shape of a list's items.
    pub fn items(self) -> Self {
        match self {
            Self::Schema(schema) | Self::SchemaRoot(schema) => {
                schema.get("items").map_or(Self::Free, Self::Schema)
            }
            Self::Builtin {
                field,
                in_container,
            } => Self::Builtin {
                field: "",
                in_container: in_container
                    || matches!(
                        field,
                        "containers" | "initContainers" | "ephemeralContainers"
                    ),
            },
            Self::Free => Self::Free,
        }
    }

    /// How a list at this position merges.
    pub fn list_kind(self) -> ListKind {
        match self {
            Self::Schema(schema) | Self::SchemaRoot(schema) => {
                match schema.get("x-kubernetes-list-type").and_then(Value::as_str) {
                    Some("set") => ListKind::Set,
                    Some("map") => ListKind::Map(
                        schema
                            .get("x-kubernetes-list-map-keys")
                            .and_then(Value::as_array)
                            .map(|keys| {
                                keys.iter()
                                    .filter_map(|k| k.as_str().map(ToString::to_string))
                                    .collect()
                            })
                            .unwrap_or_default(),
                    ),
                    _ => ListKind::Atomic,
                }
            }
            Self::Builtin {
                field,
                in_container,
            } => builtin_list_kind(field, in_container),
            Self::Free => ListKind::Atomic,
        }
    }

    /// Whether an object at this position is replaced as a whole.
    pub fn atomic_map(self) -> bool {
        match self {
            Self::Schema(schema) | Self::SchemaRoot(schema) => {
                schema.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic")
            }
            Self::Builtin { field, .. } => matches!(field, "selector" | "nodeSelector" | "roleRef"),
            Self::Free => false,
        }
    }
}

fn keys(names: &[&str]) -> ListKind {
    ListKind::Map(names.iter().map(ToString::to_string).collect())
}

/// Merge keys of the built-in API types (their `patchMergeKey` / `listMapKeys`).
fn builtin_list_kind(field: &str, in_container: bool) -> ListKind {
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "resourceClaims"
        | "schedulingGates" => keys(&["name"]),
        "ports" if in_container => keys(&["containerPort", "protocol"]),
        "ports" => keys(&["port", "protocol"]),
        "volumeMounts" => keys(&["mountPath"]),
        "volumeDevices" => keys(&["devicePath"]),
        "conditions" => keys(&["type"]),
        "ownerReferences" => keys(&["uid"]),
        "hostAliases" => keys(&["ip"]),
        "topologySpreadConstraints" => keys(&["topologyKey", "whenUnsatisfiable"]),
        "finalizers" => ListKind::Set,
        _ => ListKind::Atomic,
    }
}
