//! A path item in OpenAPI v3 form (parameters with a `schema`, `requestBody`, responses by
//! media type) or Swagger 2.0 form (typed parameters, a `body` parameter, `consumes`).

use serde_json::{Map, Value, json};

use super::{Parameter, PathItem};
use crate::openapi::meta;

impl PathItem {
    /// The path item in OpenAPI v3 form.
    pub fn v3(&self) -> Value {
        let parameter = |p: &Parameter| {
            let mut value = json!({"name": p.name, "in": p.location, "description": p.description, "schema": {"type": p.kind, "uniqueItems": true}});
            if p.location == "path" {
                value["required"] = json!(true);
            }
            value
        };
        let mut item = Map::new();
        item.insert(
            "parameters".into(),
            self.parameters.iter().map(parameter).collect(),
        );
        for o in &self.operations {
            let content = |definition: &str, types: &[&str]| -> Value {
                types
                    .iter()
                    .map(|t| {
                        (
                            t.to_string(),
                            json!({"schema": {"$ref": format!("{}{definition}", meta::V3_PREFIX)}}),
                        )
                    })
                    .collect::<Map<_, _>>()
                    .into()
            };
            let responses: Map<String, Value> = o.responses.iter().map(|(code, meaning, definition)| {
                (code.to_string(), json!({"description": meaning, "content": content(definition, &["application/json"])}))
            }).collect();
            let mut operation = json!({
                "description": o.description,
                "operationId": o.id,
                "tags": [self.tag],
                "responses": responses,
                "x-kubernetes-action": o.action,
                "x-kubernetes-group-version-kind": self.gvk,
            });
            if !o.parameters.is_empty() {
                operation["parameters"] = o.parameters.iter().map(parameter).collect();
            }
            if let Some((definition, types)) = &o.body {
                operation["requestBody"] =
                    json!({"content": content(definition, types), "required": true});
            }
            item.insert(o.method.into(), operation);
        }
        Value::Object(item)
    }

    /// The path item in Swagger 2.0 form.
    pub fn v2(&self) -> Value {
        let reference = |definition: &str| json!({"$ref": format!("#/definitions/{definition}")});
        let parameter = |p: &Parameter| {
            let mut value = json!({"name": p.name, "in": p.location, "description": p.description, "type": p.kind, "uniqueItems": true});
            if p.location == "path" {
                value["required"] = json!(true);
            }
            value
        };
        let mut item = Map::new();
        item.insert(
            "parameters".into(),
            self.parameters.iter().map(parameter).collect(),
        );
        for o in &self.operations {
            let mut parameters: Vec<Value> = Vec::new();
            let mut consumes = vec!["*/*"];
            if let Some((definition, types)) = &o.body {
                parameters.push(json!({"name": "body", "in": "body", "required": true, "schema": reference(definition)}));
                consumes = types.clone();
            }
            parameters.extend(o.parameters.iter().map(parameter));
            let mut responses: Map<String, Value> = o
                .responses
                .iter()
                .map(|(code, meaning, definition)| {
                    (
                        code.to_string(),
                        json!({"description": meaning, "schema": reference(definition)}),
                    )
                })
                .collect();
            responses.insert("401".into(), json!({"description": "Unauthorized"}));
            let mut operation = json!({
                "description": o.description,
                "operationId": o.id,
                "tags": [self.tag],
                "consumes": consumes,
                "produces": ["application/json"],
                "schemes": ["https"],
                "responses": responses,
                "x-kubernetes-action": o.action,
                "x-kubernetes-group-version-kind": self.gvk,
            });
            if !parameters.is_empty() {
                operation["parameters"] = parameters.into();
            }
            item.insert(o.method.into(), operation);
        }
        Value::Object(item)
    }
}
