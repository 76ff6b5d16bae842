//! The structure of representative k8s-openapi types' schemas: what a CRD that embeds them must
//! get right for the API server (types, formats, required fields, list and map types,
//! int-or-string), and descriptions that are the Go comments, as controller-gen writes them.
//! `tools/k8s-schemas` checks every root against controller-gen itself when it generates them.

use k8s_openapi::api::core::v1::{
    Container, EnvVar, LocalObjectReference, PodTemplateSpec, ResourceRequirements,
    SecretKeySelector, ServicePort, Toleration,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector};
use serde_json::{Value, json};

use super::generated::ROOTS;
use crate::schema::{JSONSchemaProps, Schema};

fn value(schema: JSONSchemaProps) -> Value {
    serde_json::to_value(schema).unwrap()
}

/// The schema at `path` (property names and `[]` for items, dot-separated) below `schema`.
fn at<'a>(schema: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(schema, |node, step| {
        let next = if step == "[]" {
            node.get("items")
        } else {
            node.get("properties").and_then(|p| p.get(step))
        };
        next.unwrap_or_else(|| panic!("no {step} in {path}: {node:#}"))
    })
}

fn required(schema: &Value) -> Value {
    schema.get("required").cloned().unwrap_or(Value::Null)
}

fn assert_map_list(schema: &Value, keys: &[&str]) {
    assert_eq!(schema["type"], "array");
    assert_eq!(schema["x-kubernetes-list-type"], "map");
    assert_eq!(schema["x-kubernetes-list-map-keys"], json!(keys));
}

fn assert_int_or_string(schema: &Value) {
    assert_eq!(schema["x-kubernetes-int-or-string"], true);
    assert_eq!(
        schema["anyOf"],
        json!([{ "type": "integer" }, { "type": "string" }])
    );
}

#[test]
fn every_root_decodes_fully_inlined_and_as_controller_gen_writes_objects() {
    fn check(schema: &Value, path: &str) {
        assert!(schema.get("$ref").is_none(), "{path}: a reference is left");
        assert!(schema.get("nullable").is_none(), "{path}: nullable");
        if let Some(names) = schema.get("required").and_then(Value::as_array) {
            let mut sorted = names.clone();
            sorted.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
            assert_eq!(names, &sorted, "{path}: required is not sorted");
        }
        if let Some(format) = schema.get("format") {
            assert!(
                ["int32", "int64", "byte", "date-time"].contains(&format.as_str().unwrap()),
                "{path}: format {format} is not one controller-gen writes"
            );
        }
        for (name, property) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            check(property, &format!("{path}.{name}"));
        }
        for key in ["items", "additionalProperties"] {
            if let Some(inner) = schema.get(key).filter(|v| v.is_object()) {
                check(inner, &format!("{path}[]"));
            }
        }
    }
    for (name, schema) in ROOTS {
        let schema = value(schema());
        assert_eq!(schema["type"], "object", "{name}");
        check(&schema, name);
    }
}

#[test]
fn pod_template_spec_inlines_the_pod_spec_and_keeps_metadata_opaque() {
    let schema = value(PodTemplateSpec::schema());
    assert_eq!(required(&schema), Value::Null);
    let metadata = at(&schema, "metadata");
    assert_eq!(metadata["type"], "object");
    assert!(metadata.get("properties").is_none());
    let spec = at(&schema, "spec");
    assert_eq!(required(spec), json!(["containers"]));
    assert_map_list(at(spec, "containers"), &["name"]);
    assert_map_list(at(spec, "initContainers"), &["name"]);
    assert_map_list(at(spec, "volumes"), &["name"]);
    assert_map_list(at(spec, "imagePullSecrets"), &["name"]);
    assert_map_list(
        at(spec, "topologySpreadConstraints"),
        &["topologyKey", "whenUnsatisfiable"],
    );
    assert_eq!(at(spec, "tolerations")["x-kubernetes-list-type"], "atomic");
    assert_eq!(at(spec, "nodeSelector")["x-kubernetes-map-type"], "atomic");
    assert_eq!(
        at(spec, "nodeSelector")["additionalProperties"],
        json!({ "type": "string" })
    );
    assert_eq!(at(spec, "terminationGracePeriodSeconds")["format"], "int64");
    assert_eq!(at(spec, "hostNetwork")["type"], "boolean");
    let description = at(spec, "serviceAccountName")["description"].as_str();
    assert!(description.is_some_and(|d| d.contains("ServiceAccount")));
}

#[test]
fn container() {
    let schema = value(Container::schema());
    assert_eq!(required(&schema), json!(["name"]));
    assert_eq!(at(&schema, "image")["type"], "string");
    assert_eq!(at(&schema, "command")["x-kubernetes-list-type"], "atomic");
    assert_eq!(at(&schema, "command.[]"), &json!({ "type": "string" }));
    assert_map_list(at(&schema, "env"), &["name"]);
    assert_map_list(at(&schema, "volumeMounts"), &["mountPath"]);
    let ports = at(&schema, "ports");
    assert_map_list(ports, &["containerPort", "protocol"]);
    assert_eq!(required(at(ports, "[]")), json!(["containerPort"]));
    assert_eq!(at(ports, "[].containerPort")["format"], "int32");
    assert_eq!(at(ports, "[].protocol")["default"], "TCP");
    let probe = at(&schema, "livenessProbe");
    assert_int_or_string(at(probe, "httpGet.port"));
    assert_eq!(required(at(probe, "httpGet")), json!(["port"]));
    assert_eq!(at(probe, "periodSeconds")["format"], "int32");
    let limits = at(&schema, "resources.limits");
    assert_eq!(limits["type"], "object");
    assert_int_or_string(&limits["additionalProperties"]);
}

#[test]
fn resource_requirements() {
    let schema = value(ResourceRequirements::schema());
    assert_eq!(required(&schema), Value::Null);
    for field in ["limits", "requests"] {
        let quantity = &at(&schema, field)["additionalProperties"];
        assert_int_or_string(quantity);
        assert!(
            quantity["pattern"]
                .as_str()
                .unwrap()
                .starts_with("^(\\+|-)?")
        );
    }
    let claims = at(&schema, "claims");
    assert_map_list(claims, &["name"]);
    assert_eq!(required(at(claims, "[]")), json!(["name"]));
}

#[test]
fn env_var_references_secrets_and_config_maps_atomically() {
    let schema = value(EnvVar::schema());
    assert_eq!(required(&schema), json!(["name"]));
    for selector in ["secretKeyRef", "configMapKeyRef"] {
        let selector = at(&schema, &format!("valueFrom.{selector}"));
        assert_eq!(selector["x-kubernetes-map-type"], "atomic");
        assert_eq!(required(selector), json!(["key"]));
        assert_eq!(at(selector, "name")["default"], "");
        assert_eq!(at(selector, "optional")["type"], "boolean");
    }
    let field_ref = at(&schema, "valueFrom.fieldRef");
    assert_eq!(required(field_ref), json!(["fieldPath"]));
    assert_int_or_string(at(&schema, "valueFrom.resourceFieldRef.divisor"));
}

#[test]
fn toleration_has_only_optional_fields() {
    let schema = value(Toleration::schema());
    assert_eq!(required(&schema), Value::Null);
    assert_eq!(at(&schema, "tolerationSeconds")["format"], "int64");
    for field in ["effect", "key", "operator", "value"] {
        assert_eq!(at(&schema, field)["type"], "string", "{field}");
    }
}

#[test]
fn local_object_reference_is_atomic_with_an_optional_name() {
    let schema = value(LocalObjectReference::schema());
    assert_eq!(schema["x-kubernetes-map-type"], "atomic");
    assert_eq!(required(&schema), Value::Null);
    assert_eq!(at(&schema, "name")["default"], "");
    assert_eq!(at(&schema, "name")["type"], "string");
}

#[test]
fn secret_key_selector() {
    let schema = value(SecretKeySelector::schema());
    assert_eq!(schema["x-kubernetes-map-type"], "atomic");
    assert_eq!(required(&schema), json!(["key"]));
    assert_eq!(
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["key", "name", "optional"]
    );
}

#[test]
fn service_port() {
    let schema = value(ServicePort::schema());
    assert_eq!(required(&schema), json!(["port"]));
    assert_eq!(at(&schema, "port")["format"], "int32");
    assert_eq!(at(&schema, "nodePort")["format"], "int32");
    assert_eq!(at(&schema, "protocol")["default"], "TCP");
    let target_port = at(&schema, "targetPort");
    assert_int_or_string(target_port);
    assert!(target_port.get("pattern").is_none());
}

#[test]
fn a_field_of_a_k8s_type_keeps_its_own_doc_and_markers() {
    use crate::schema::{Marker, StructSchema};
    let mut spec = StructSchema::new("Spec");
    spec.field(
        "tolerations",
        false,
        Some("Tolerations of the pods."),
        Vec::<Toleration>::schema(),
        &[Marker::MaxItems(3)],
    );
    let schema = value(spec.finish(None, &[]));
    let tolerations = at(&schema, "tolerations");
    assert_eq!(tolerations["description"], "Tolerations of the pods.");
    assert_eq!(tolerations["maxItems"], 3);
    assert!(
        at(tolerations, "[]")["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("The pod this Toleration is attached to"))
    );
}

#[test]
fn descriptions_keep_the_line_breaks_of_the_go_comments() {
    let selector = value(LabelSelector::schema());
    assert_eq!(
        selector["description"],
        "A label selector is a label query over a set of resources. The result of matchLabels and\n\
         matchExpressions are ANDed. An empty label selector matches all objects. A null\n\
         label selector matches no objects."
    );
    let operator = at(&value(Toleration::schema()), "operator")["description"].clone();
    assert!(
        operator.as_str().unwrap().starts_with(
            "Operator represents a key's relationship to the value.\nValid operators are "
        ),
        "{operator}"
    );
}

#[test]
fn condition_carries_its_go_markers() {
    let schema = value(Condition::schema());
    assert_eq!(
        required(&schema),
        json!(["lastTransitionTime", "message", "reason", "status", "type"])
    );
    assert_eq!(at(&schema, "lastTransitionTime")["format"], "date-time");
    assert_eq!(at(&schema, "message")["maxLength"], 32768);
    assert_eq!(at(&schema, "observedGeneration")["minimum"], 0.0);
    assert_eq!(at(&schema, "reason")["minLength"], 1);
    assert_eq!(
        at(&schema, "status")["enum"],
        json!(["True", "False", "Unknown"])
    );
    assert_eq!(at(&schema, "type")["maxLength"], 316);
}

#[test]
fn label_selector_is_atomic_with_atomic_expressions() {
    let schema = value(LabelSelector::schema());
    assert_eq!(schema["x-kubernetes-map-type"], "atomic");
    let expressions = at(&schema, "matchExpressions");
    assert_eq!(expressions["x-kubernetes-list-type"], "atomic");
    assert_eq!(required(at(expressions, "[]")), json!(["key", "operator"]));
    assert_eq!(
        at(&schema, "matchLabels")["additionalProperties"],
        json!({ "type": "string" })
    );
}
