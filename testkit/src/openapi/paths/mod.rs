//! The operations a resource type's paths offer, as the API server describes them: one model,
//! written out in OpenAPI v3 or Swagger 2.0 form (`forms`). kubectl reads them: `explain` finds a
//! resource's kind from the `x-kubernetes-group-version-kind` of its operations, validation
//! asks whether PATCH takes `fieldValidation` (then the server validates), and client-side
//! apply whether PATCH takes a strategic merge patch.

mod forms;

use serde_json::{Value, json};

use super::meta;
use crate::resources::ResourceType;

/// A query or path parameter.
#[derive(Clone)]
struct Parameter {
    name: &'static str,
    location: &'static str,
    kind: &'static str,
    description: String,
}

fn query(name: &'static str, kind: &'static str, description: &str) -> Parameter {
    Parameter {
        name,
        location: "query",
        kind,
        description: description.to_string(),
    }
}

/// One operation of a path.
struct Operation {
    method: &'static str,
    action: &'static str,
    id: String,
    description: String,
    parameters: Vec<Parameter>,
    /// The request body's definition and media types.
    body: Option<(String, Vec<&'static str>)>,
    /// Status codes with their meaning, and the definition returned.
    responses: Vec<(u16, &'static str, String)>,
}

/// A path with its operations, all on one kind.
pub struct PathItem {
    pub path: String,
    parameters: Vec<Parameter>,
    operations: Vec<Operation>,
    gvk: Value,
    tag: String,
}

const DRY_RUN: &str = "When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed";
const FIELD_MANAGER: &str =
    "fieldManager is a name associated with the actor or entity that is making these changes.";
const FIELD_VALIDATION: &str = "fieldValidation determines how the server should respond to unknown/duplicate fields in the object in the request. Valid values are: - Ignore: ignores unknown/duplicate fields. - Warn: responds with a warning for each unknown/duplicate field, but successfully serves the request. - Strict: fails the request on unknown/duplicate fields.";

fn write_parameters() -> Vec<Parameter> {
    vec![
        query("dryRun", "string", DRY_RUN),
        query("fieldManager", "string", FIELD_MANAGER),
        query("fieldValidation", "string", FIELD_VALIDATION),
    ]
}

fn delete_parameters() -> Vec<Parameter> {
    vec![
        query("dryRun", "string", DRY_RUN),
        query(
            "gracePeriodSeconds",
            "integer",
            "The duration in seconds before the object should be deleted.",
        ),
        query(
            "propagationPolicy",
            "string",
            "Whether and how garbage collection will be performed: 'Orphan', 'Background' or 'Foreground'.",
        ),
    ]
}

fn list_parameters() -> Vec<Parameter> {
    vec![
        query(
            "continue",
            "string",
            "The continue option should be set when retrieving more results from the server.",
        ),
        query(
            "fieldSelector",
            "string",
            "A selector to restrict the list of returned objects by their fields. Defaults to everything.",
        ),
        query(
            "labelSelector",
            "string",
            "A selector to restrict the list of returned objects by their labels. Defaults to everything.",
        ),
        query(
            "limit",
            "integer",
            "limit is a maximum number of responses to return for a list call.",
        ),
        query(
            "resourceVersion",
            "string",
            "resourceVersion sets a constraint on what resource versions a request may be served from.",
        ),
        query(
            "resourceVersionMatch",
            "string",
            "resourceVersionMatch determines how resourceVersion is applied to list calls.",
        ),
        query(
            "timeoutSeconds",
            "integer",
            "Timeout for the list/watch call.",
        ),
    ]
}

fn watch_parameters() -> Vec<Parameter> {
    vec![
        query(
            "allowWatchBookmarks",
            "boolean",
            "allowWatchBookmarks requests watch events with type \"BOOKMARK\".",
        ),
        query(
            "sendInitialEvents",
            "boolean",
            "With `watch=true`, the stream begins with synthetic events of the current state.",
        ),
        query(
            "watch",
            "boolean",
            "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.",
        ),
    ]
}

/// `CoreV1`, `AppsV1`, `AppExampleComV1`: how operation ids name a group-version.
fn group_version_id(group: &str, version: &str) -> String {
    let group = group.strip_suffix(".k8s.io").unwrap_or(group);
    let group = if group.is_empty() { "core" } else { group };
    let mut id = String::new();
    for part in group.split(['.', '-']).chain([version]) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            id.extend(first.to_uppercase());
            id.push_str(chars.as_str());
        }
    }
    id
}

impl Operation {
    fn new(method: &'static str, action: &'static str, id: String, description: String) -> Self {
        Self {
            method,
            action,
            id,
            description,
            parameters: Vec::new(),
            body: None,
            responses: Vec::new(),
        }
    }

    fn parameters(mut self, parameters: Vec<Parameter>) -> Self {
        self.parameters = parameters;
        self
    }

    fn body(mut self, definition: &str, media_types: &[&'static str]) -> Self {
        self.body = Some((definition.to_string(), media_types.to_vec()));
        self
    }

    fn returns(mut self, codes: &[(u16, &'static str)], definition: &str) -> Self {
        self.responses = codes
            .iter()
            .map(|(code, meaning)| (*code, *meaning, definition.to_string()))
            .collect();
        self
    }
}

/// The operations of one kind at one version, named as the API server names them
/// (`patchAppsV1NamespacedDeploymentStatus`).
struct Operations<'a> {
    kind: &'a str,
    group_version: String,
    scope: &'static str,
    definition: &'a str,
    patch_types: Vec<&'static str>,
}

impl Operations<'_> {
    fn id(&self, verb: &str, subresource: &str) -> String {
        let (group_version, scope, kind) = (&self.group_version, self.scope, self.kind);
        format!("{verb}{group_version}{scope}{kind}{subresource}")
    }

    fn list(&self, all_namespaces: bool) -> Operation {
        let id = if all_namespaces {
            format!("list{}{}ForAllNamespaces", self.group_version, self.kind)
        } else {
            self.id("list", "")
        };
        let description = format!("list or watch objects of kind {}", self.kind);
        Operation::new("get", "list", id, description)
            .parameters([list_parameters(), watch_parameters()].concat())
            .returns(&[(200, "OK")], &format!("{}List", self.definition))
    }

    fn create(&self) -> Operation {
        let description = format!("create a {}", self.kind);
        Operation::new("post", "post", self.id("create", ""), description)
            .parameters(write_parameters())
            .body(self.definition, &["application/json"])
            .returns(
                &[(200, "OK"), (201, "Created"), (202, "Accepted")],
                self.definition,
            )
    }

    fn delete_collection(&self) -> Operation {
        let (group_version, scope, kind) = (&self.group_version, self.scope, self.kind);
        let id = format!("delete{group_version}Collection{scope}{kind}");
        let description = format!("delete collection of {kind}");
        Operation::new("delete", "deletecollection", id, description)
            .parameters([list_parameters(), delete_parameters()].concat())
            .returns(&[(200, "OK")], meta::STATUS)
    }

    fn read(&self, subresource: &str) -> Operation {
        let description = format!("read the specified {}", self.kind);
        Operation::new("get", "get", self.id("read", subresource), description)
            .returns(&[(200, "OK")], self.definition)
    }

    fn replace(&self, subresource: &str) -> Operation {
        let description = format!("replace the specified {}", self.kind);
        Operation::new("put", "put", self.id("replace", subresource), description)
            .parameters(write_parameters())
            .body(self.definition, &["application/json"])
            .returns(&[(200, "OK"), (201, "Created")], self.definition)
    }

    fn patch(&self, subresource: &str) -> Operation {
        let description = format!("partially update the specified {}", self.kind);
        let force = query(
            "force",
            "boolean",
            "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people.",
        );
        Operation::new("patch", "patch", self.id("patch", subresource), description)
            .parameters([write_parameters(), vec![force]].concat())
            .body(meta::PATCH, &self.patch_types)
            .returns(&[(200, "OK"), (201, "Created")], self.definition)
    }

    fn delete(&self) -> Operation {
        let description = format!("delete a {}", self.kind);
        Operation::new("delete", "delete", self.id("delete", ""), description)
            .parameters(delete_parameters())
            .body(meta::DELETE_OPTIONS, &["application/json"])
            .returns(&[(200, "OK"), (202, "Accepted")], meta::STATUS)
    }
}

/// The paths of a resource type at one version, whose kind is the definition `definition`.
pub fn path_items(resource_type: &ResourceType, version: &str, definition: &str) -> Vec<PathItem> {
    let rt = resource_type;
    let group = rt.group.as_str();
    let prefix = if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    };
    let mut patch_types = vec![
        "application/apply-patch+yaml",
        "application/json-patch+json",
        "application/merge-patch+json",
    ];
    if !rt.custom {
        // The testkit, like the API server, takes strategic merge patches on built-in kinds only.
        patch_types.push("application/strategic-merge-patch+json");
    }
    let operations = Operations {
        kind: &rt.kind,
        group_version: group_version_id(group, version),
        scope: if rt.namespaced { "Namespaced" } else { "" },
        definition,
        patch_types,
    };
    let tag = format!(
        "{}_{version}",
        if group.is_empty() { "core" } else { group }
    );
    let item = |path: String, parameters: Vec<Parameter>, operations: Vec<Operation>| PathItem {
        path,
        parameters,
        operations,
        gvk: json!({"group": group, "kind": rt.kind, "version": version}),
        tag: tag.clone(),
    };
    let path_parameter = |name, description: String| Parameter {
        name,
        location: "path",
        kind: "string",
        description,
    };
    let name = path_parameter("name", format!("name of the {}", rt.kind));
    let namespace = path_parameter(
        "namespace",
        "object name and auth scope, such as for teams and projects".into(),
    );
    let mut items = Vec::new();
    let (collection, scope) = if rt.namespaced {
        let all = vec![operations.list(true)];
        items.push(item(format!("{prefix}/{}", rt.plural), Vec::new(), all));
        let namespaced = format!("{prefix}/namespaces/{{namespace}}/{}", rt.plural);
        (namespaced, vec![namespace])
    } else {
        (format!("{prefix}/{}", rt.plural), Vec::new())
    };
    let named = [vec![name], scope.clone()].concat();
    let on_collection = vec![
        operations.list(false),
        operations.create(),
        operations.delete_collection(),
    ];
    items.push(item(collection.clone(), scope, on_collection));
    let on_object = vec![
        operations.read(""),
        operations.replace(""),
        operations.patch(""),
        operations.delete(),
    ];
    items.push(item(
        format!("{collection}/{{name}}"),
        named.clone(),
        on_object,
    ));
    if rt.status_subresource {
        let on_status = vec![
            operations.read("Status"),
            operations.replace("Status"),
            operations.patch("Status"),
        ];
        items.push(item(
            format!("{collection}/{{name}}/status"),
            named,
            on_status,
        ));
    }
    items
}
