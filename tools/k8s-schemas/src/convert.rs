//! From k8s-openapi's schemars schemas (the Kubernetes OpenAPI spec) to the form controller-gen
//! gives the same Go types, minus what the spec lacks (see `overlay`).

use serde_json::{Map, Value, json};

/// Schemas webop writes by hand (`src/schema/k8s/`): controller-gen's known types, which it
/// overrides, and types whose Go docs webop carries verbatim. References to them are kept;
/// their own schemas are not generated.
pub const HAND_WRITTEN: &[&str] = &[
    "io.k8s.api.core.v1.ObjectReference",
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
];

const DEFINITIONS: &str = "#/$defs/";

/// Converts one schema. `refs` collects the names of the definitions it references.
pub fn convert(schema: &Value, at: &str, refs: &mut Vec<String>) -> Value {
    let Value::Object(object) = schema else {
        panic!("{at}: a schema must be an object, found {schema}");
    };
    let mut out = Map::new();
    for (key, value) in object {
        let at = format!("{at}.{key}");
        match key.as_str() {
            "$ref" => {
                let name = value
                    .as_str()
                    .and_then(|r| r.strip_prefix(DEFINITIONS))
                    .unwrap_or_else(|| panic!("{at}: unexpected reference {value}"));
                refs.push(name.to_owned());
                out.insert(key.clone(), json!(name));
            }
            "description" | "type" => {
                out.insert(key.clone(), value.clone());
            }
            // Go's float64 has no format in controller-gen (`builtinToType`).
            "format" if matches!(value.as_str(), Some("double" | "float")) => {}
            "format" => {
                out.insert(key.clone(), value.clone());
            }
            "required" => {
                let mut names: Vec<Value> = value.as_array().cloned().unwrap_or_default();
                names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                out.insert(key.clone(), Value::Array(names));
            }
            "properties" => {
                let properties = value
                    .as_object()
                    .unwrap_or_else(|| panic!("{at}: properties must be an object"))
                    .iter()
                    .map(|(name, property)| {
                        (
                            name.clone(),
                            convert(property, &format!("{at}.{name}"), refs),
                        )
                    })
                    .collect();
                out.insert(key.clone(), Value::Object(properties));
            }
            "items" | "additionalProperties" => {
                out.insert(key.clone(), convert(value, &at, refs));
            }
            _ => panic!("{at}: no conversion for the key {key:?} (value {value})"),
        }
    }
    if out.contains_key("$ref")
        && let Some(extra) = out
            .keys()
            .find(|k| !matches!(k.as_str(), "$ref" | "description"))
    {
        panic!("{at}: a reference with a sibling {extra:?} cannot be inlined");
    }
    Value::Object(out)
}

/// The Rust path of the k8s-openapi type with this schema name.
pub fn rust_path(name: &str) -> String {
    let rest = name
        .strip_prefix("io.k8s.")
        .unwrap_or_else(|| panic!("not a Kubernetes schema name: {name}"));
    format!("k8s_openapi::{}", rest.replace('-', "_").replace('.', "::"))
}
