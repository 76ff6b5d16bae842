//! The definitions of the built-in kinds, named as the API server names them
//! (`io.k8s.api.apps.v1.Deployment`), built once per process from `webop::schema` and the
//! apimachinery definitions of `meta`.
//!
//! `webop::schema` writes types as controller-gen inlines them into a CRD; three things differ
//! in what the API server publishes, and are put back here: embedded `metadata` is a reference
//! to `ObjectMeta` (not an opaque object), int-or-string fields refer to `IntOrString` or
//! `Quantity`, and map-lists carry the strategic-merge-patch keys kubectl's client-side apply
//! reads (`x-kubernetes-patch-merge-key`, taken from the first list-map key).

mod kinds;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::meta::{self, V3_PREFIX};
use kinds::{Kind, kinds};

/// The built-in definitions: every kind, its list kind, and the shared apimachinery types.
pub struct Builtins {
    /// Every definition by name, in their v3 form.
    pub definitions: BTreeMap<String, Value>,
    /// Each kind's definition name, by (group, version, kind).
    names: Vec<((&'static str, &'static str, &'static str), String)>,
    /// Each kind's schema with references resolved, for strict field validation.
    resolved: OnceLock<BTreeMap<String, Value>>,
}

/// The built-in definitions, built on first use.
pub fn builtins() -> &'static Builtins {
    static BUILTINS: OnceLock<Builtins> = OnceLock::new();
    BUILTINS.get_or_init(Builtins::build)
}

/// `io.k8s.api.<package>.<version>.<Kind>`, the package being the group's first label (`core`
/// for the core group).
fn definition_name(group: &str, version: &str, kind: &str) -> String {
    if group == "apiextensions.k8s.io" {
        return format!("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.{version}.{kind}");
    }
    let package = group.split('.').next().filter(|p| !p.is_empty());
    format!("io.k8s.api.{}.{version}.{kind}", package.unwrap_or("core"))
}

impl Builtins {
    fn build() -> Self {
        let mut definitions: BTreeMap<String, Value> = meta::definitions()
            .into_iter()
            .map(|(name, schema)| (name.to_string(), schema))
            .collect();
        let mut names = Vec::new();
        for kind in kinds() {
            let name = definition_name(kind.group, kind.version, kind.kind);
            definitions.insert(
                format!("{name}List"),
                meta::list_definition(kind.kind, &name, (kind.group, kind.version)),
            );
            definitions.insert(name.clone(), kind_definition(kind));
            names.push(((kind.group, kind.version, kind.kind), name));
        }
        Self {
            definitions,
            names,
            resolved: OnceLock::new(),
        }
    }

    /// The definition name of a built-in kind.
    pub fn name_of(&self, group: &str, version: &str, kind: &str) -> Option<&str> {
        self.names
            .iter()
            .find(|(key, _)| *key == (group, version, kind))
            .map(|(_, name)| name.as_str())
    }

    /// A built-in kind's schema with every reference resolved and every object the testkit has
    /// no schema for open: what strict field validation checks objects against.
    pub fn resolved(&self, group: &str, version: &str, kind: &str) -> Option<&Value> {
        let name = self.name_of(group, version, kind)?;
        let resolved = self.resolved.get_or_init(|| {
            self.names
                .iter()
                .filter_map(|(_, name)| {
                    let schema = self.definitions.get(name)?;
                    Some((name.clone(), resolve(schema, &self.definitions)))
                })
                .collect()
        });
        resolved.get(name)
    }
}

fn kind_definition(kind: &Kind) -> Value {
    let mut properties = meta::type_meta_properties();
    properties.insert("metadata".into(), meta::object_metadata(meta::METADATA_DOC));
    for (name, description, mut schema) in (kind.fields)() {
        restore_api_server_form(&mut schema);
        schema["description"] = json!(description);
        properties.insert(name.to_string(), schema);
    }
    let mut definition = json!({
        "description": kind.description,
        "type": "object",
        "properties": properties,
        "x-kubernetes-group-version-kind": [{"group": kind.group, "kind": kind.kind, "version": kind.version}],
    });
    if !kind.required.is_empty() {
        definition["required"] = json!(kind.required);
    }
    definition
}

/// An object schema with nothing said about its fields: what `webop::schema` writes for an
/// embedded `ObjectMeta`.
fn is_opaque_object(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("object"))
        && schema.get("properties").is_none()
        && schema.get("additionalProperties").is_none()
        && schema.get("x-kubernetes-preserve-unknown-fields").is_none()
}

/// Rewrites a `webop::schema` tree into the form the API server publishes (see the module doc).
fn restore_api_server_form(schema: &mut Value) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    if node.get("x-kubernetes-int-or-string") == Some(&json!(true)) {
        let target = if node.contains_key("pattern") {
            meta::QUANTITY
        } else {
            meta::INT_OR_STRING
        };
        let mut reference = Map::new();
        reference.insert("$ref".into(), json!(format!("{V3_PREFIX}{target}")));
        for kept in ["description", "default"] {
            if let Some(value) = node.remove(kept) {
                reference.insert(kept.into(), value);
            }
        }
        *node = reference;
        return;
    }
    if node.get("x-kubernetes-list-type") == Some(&json!("map"))
        && let Some(key) = node
            .get("x-kubernetes-list-map-keys")
            .and_then(|keys| keys.get(0))
            .cloned()
    {
        node.insert("x-kubernetes-patch-strategy".into(), json!("merge"));
        node.insert("x-kubernetes-patch-merge-key".into(), key);
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if name == "metadata" && is_opaque_object(property) {
                let description = property.get("description").and_then(Value::as_str);
                *property = meta::reference(meta::OBJECT_META, description.unwrap_or_default());
            } else {
                restore_api_server_form(property);
            }
        }
    }
    for child in ["items", "additionalProperties"] {
        if let Some(child) = node.get_mut(child) {
            restore_api_server_form(child);
        }
    }
}

/// `schema` with every `$ref` replaced by its definition (the use site's description kept), and
/// every object without declared fields open, as Go's decoding of a `map[string]any` is.
fn resolve(schema: &Value, definitions: &BTreeMap<String, Value>) -> Value {
    let Some(node) = schema.as_object() else {
        return schema.clone();
    };
    if let Some(target) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(V3_PREFIX))
        .and_then(|name| definitions.get(name))
    {
        let mut resolved = resolve(target, definitions);
        if let (Some(description), Some(fields)) =
            (node.get("description"), resolved.as_object_mut())
        {
            fields.insert("description".into(), description.clone());
        }
        return resolved;
    }
    let mut node = node.clone();
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        for property in properties.values_mut() {
            *property = resolve(property, definitions);
        }
    }
    for child in ["items", "additionalProperties"] {
        if let Some(value) = node.get(child).filter(|v| v.is_object()) {
            let resolved = resolve(value, definitions);
            node.insert(child.into(), resolved);
        }
    }
    let mut resolved = Value::Object(node);
    if is_opaque_object(&resolved) {
        resolved["x-kubernetes-preserve-unknown-fields"] = json!(true);
    }
    resolved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn property<'a>(schema: &'a Value, path: &str) -> &'a Value {
        path.split('.').fold(schema, |node, step| {
            let next = if step == "[]" {
                node.get("items")
            } else {
                node.get("properties").and_then(|p| p.get(step))
            };
            next.unwrap_or_else(|| panic!("no {step} in {path}"))
        })
    }

    #[test]
    fn kinds_are_named_as_the_api_server_names_them_with_their_group_version_kind() {
        let builtins = builtins();
        let name = builtins.name_of("apps", "v1", "Deployment").unwrap();
        assert_eq!(name, "io.k8s.api.apps.v1.Deployment");
        let deployment = &builtins.definitions[name];
        assert_eq!(
            deployment["x-kubernetes-group-version-kind"],
            json!([{"group": "apps", "kind": "Deployment", "version": "v1"}])
        );
        assert_eq!(
            builtins.name_of("", "v1", "ConfigMap"),
            Some("io.k8s.api.core.v1.ConfigMap")
        );
        assert_eq!(
            builtins.name_of("rbac.authorization.k8s.io", "v1", "Role"),
            Some("io.k8s.api.rbac.v1.Role")
        );
        assert!(
            builtins
                .definitions
                .contains_key("io.k8s.api.apps.v1.DeploymentList")
        );
    }

    #[test]
    fn fields_come_from_webop_schema_in_the_api_servers_form() {
        let builtins = builtins();
        let deployment = &builtins.definitions["io.k8s.api.apps.v1.Deployment"];
        let replicas = property(deployment, "spec.replicas");
        assert_eq!(replicas["type"], "integer");
        assert!(
            replicas["description"]
                .as_str()
                .unwrap()
                .starts_with("Number of desired pods.")
        );
        assert_eq!(
            property(deployment, "spec.template.metadata")["$ref"],
            format!("{V3_PREFIX}{}", meta::OBJECT_META)
        );
        let max_surge = property(deployment, "spec.strategy.rollingUpdate.maxSurge");
        assert_eq!(
            max_surge["$ref"],
            format!("{V3_PREFIX}{}", meta::INT_OR_STRING)
        );
        let containers = property(deployment, "spec.template.spec.containers");
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
        let limits = property(
            deployment,
            "spec.template.spec.containers.[].resources.limits",
        );
        assert_eq!(
            limits["additionalProperties"]["$ref"],
            format!("{V3_PREFIX}{}", meta::QUANTITY)
        );
    }

    #[test]
    fn resolved_schemas_inline_references_and_leave_unknown_types_open() {
        let builtins = builtins();
        let deployment = builtins.resolved("apps", "v1", "Deployment").unwrap();
        let template_metadata = property(deployment, "spec.template.metadata");
        assert_eq!(property(template_metadata, "labels")["type"], "object");
        let fields_v1 = property(template_metadata, "managedFields.[].fieldsV1");
        assert_eq!(fields_v1["x-kubernetes-preserve-unknown-fields"], true);
        let daemon_set = builtins.resolved("apps", "v1", "DaemonSet").unwrap();
        assert_eq!(
            property(daemon_set, "status")["x-kubernetes-preserve-unknown-fields"],
            true
        );
        assert!(
            builtins
                .resolved("app.example.com", "v1", "WebApp")
                .is_none()
        );
    }
}
