//! A custom resource's definitions, as apiextensions-apiserver publishes a CRD's schema: named
//! after the reversed group (`com.example.app.v1.WebApp`), the version's `openAPIV3Schema` with
//! `apiVersion` and `kind` described, `metadata` a reference to `ObjectMeta`, embedded resources
//! given the same three fields, and the kind's `x-kubernetes-group-version-kind`.

use serde_json::{Map, Value, json};

use super::meta;
use crate::resources::ResourceType;

/// `app.example.com/v1/WebApp` as kube-openapi's REST-friendly name: `com.example.app.v1.WebApp`.
pub fn definition_name(group: &str, version: &str, kind: &str) -> String {
    let reversed: Vec<&str> = group.rsplit('.').collect();
    format!("{}.{version}.{kind}", reversed.join("."))
}

/// The kind's definition and its list's, for one served version.
pub fn definitions(resource_type: &ResourceType, version: &str) -> Vec<(String, Value)> {
    let group = resource_type.group.as_str();
    let kind = resource_type.kind.as_str();
    let name = definition_name(group, version, kind);
    let mut schema = match resource_type.schema(version) {
        Some(schema) => {
            let mut schema = schema.clone();
            add_object_fields(&mut schema, meta::API_VERSION_DOC, meta::KIND_DOC);
            add_embedded_fields(&mut schema);
            schema
        }
        None => json!({"type": "object"}),
    };
    schema["x-kubernetes-group-version-kind"] =
        json!([{"group": group, "kind": kind, "version": version}]);
    let list = meta::list_definition(kind, &name, (group, version));
    vec![(format!("{name}List"), list), (name, schema)]
}

/// Sets `apiVersion`, `kind` and `metadata` on an object schema, as the API server does for a
/// CRD's root and its embedded resources.
fn add_object_fields(schema: &mut Value, api_version_doc: &str, kind_doc: &str) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    node.entry("type").or_insert_with(|| json!("object"));
    let properties = node
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(properties) = properties.as_object_mut() {
        properties.insert(
            "apiVersion".into(),
            json!({"type": "string", "description": api_version_doc}),
        );
        properties.insert(
            "kind".into(),
            json!({"type": "string", "description": kind_doc}),
        );
        properties.insert(
            "metadata".into(),
            meta::reference(meta::OBJECT_META, meta::METADATA_DOC),
        );
    }
}

/// Gives every `x-kubernetes-embedded-resource` node the fields of an object, which must then
/// be set.
fn add_embedded_fields(schema: &mut Value) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        properties.values_mut().for_each(add_embedded_fields);
    }
    for child in ["items", "additionalProperties"] {
        if let Some(child) = node.get_mut(child) {
            add_embedded_fields(child);
        }
    }
    if node.get("x-kubernetes-embedded-resource") != Some(&json!(true)) {
        return;
    }
    add_object_fields(
        schema,
        "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    );
    let required = schema
        .as_object_mut()
        .map(|node| node.entry("required").or_insert_with(|| json!([])));
    if let Some(Value::Array(required)) = required {
        for field in ["kind", "apiVersion"] {
            if !required.iter().any(|r| r == field) {
                required.push(json!(field));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::from_crd;

    fn crd() -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "webapps.app.example.com"},
            "spec": {"group": "app.example.com", "scope": "Namespaced",
                     "names": {"kind": "WebApp", "plural": "webapps"},
                     "versions": [{"name": "v1", "served": true, "storage": true,
                                   "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                                       "metadata": {"type": "object"},
                                       "spec": {"type": "object", "description": "what the user wants",
                                                "properties": {"template": {"type": "object", "x-kubernetes-embedded-resource": true,
                                                                            "x-kubernetes-preserve-unknown-fields": true}}}}}}}]}
        })
    }

    #[test]
    fn names_reverse_the_group() {
        assert_eq!(
            definition_name("app.example.com", "v1", "WebApp"),
            "com.example.app.v1.WebApp"
        );
        assert_eq!(definition_name("stable", "v2", "Cron"), "stable.v2.Cron");
    }

    #[test]
    fn the_schema_gets_object_fields_and_its_group_version_kind() {
        let resource_type = from_crd(&crd()).unwrap();
        let definitions = definitions(&resource_type, "v1");
        let (name, schema) = &definitions[1];
        assert_eq!(name, "com.example.app.v1.WebApp");
        assert_eq!(
            schema["x-kubernetes-group-version-kind"],
            json!([{"group": "app.example.com", "kind": "WebApp", "version": "v1"}])
        );
        let properties = &schema["properties"];
        assert_eq!(
            properties["metadata"]["$ref"],
            "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert_eq!(properties["kind"]["description"], meta::KIND_DOC);
        assert_eq!(properties["spec"]["description"], "what the user wants");
        let template = &properties["spec"]["properties"]["template"];
        assert_eq!(template["required"], json!(["kind", "apiVersion"]));
        assert_eq!(template["properties"]["kind"]["type"], "string");
        assert_eq!(definitions[0].0, "com.example.app.v1.WebAppList");
    }
}
