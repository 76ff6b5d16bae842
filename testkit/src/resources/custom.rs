//! Custom resource types: what an installed CRD object makes the server serve.

use std::sync::Arc;

use serde_json::Value;

use super::ResourceType;
use crate::scale::ScalePaths;

/// Reads a CRD object into the resource type it defines.
pub fn from_crd(crd: &Value) -> Result<ResourceType, String> {
    let spec = crd.get("spec").ok_or("spec: Required value")?;
    let text = |v: Option<&Value>, what: &str| -> Result<String, String> {
        v.and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(ToString::to_string)
            .ok_or(format!("{what}: Required value"))
    };
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(ToString::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let names = spec.get("names");
    let group = text(spec.get("group"), "spec.group")?;
    let plural = text(names.and_then(|n| n.get("plural")), "spec.names.plural")?;
    let kind = text(names.and_then(|n| n.get("kind")), "spec.names.kind")?;
    let singular = names
        .and_then(|n| n.get("singular"))
        .and_then(Value::as_str)
        .map_or_else(|| kind.to_lowercase(), ToString::to_string);
    let namespaced = match spec.get("scope").and_then(Value::as_str) {
        Some("Namespaced") => true,
        Some("Cluster") => false,
        other => {
            return Err(format!(
                "spec.scope: Unsupported value: {other:?}: supported values: \"Cluster\", \"Namespaced\""
            ));
        }
    };
    let versions = spec
        .get("versions")
        .and_then(Value::as_array)
        .filter(|v| !v.is_empty())
        .ok_or("spec.versions: Required value")?;
    let mut served = Vec::new();
    let mut schemas = Vec::new();
    let mut printer_columns = Vec::new();
    let mut status_subresource = false;
    let mut scale = None;
    let mut selectable_fields = Vec::new();
    for (index, version) in versions.iter().enumerate() {
        let name = text(version.get("name"), &format!("spec.versions[{index}].name"))?;
        if !version
            .get("served")
            .and_then(Value::as_bool)
            .unwrap_or(false)
        {
            continue;
        }
        let storage = version
            .get("storage")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if version.pointer("/subresources/status").is_some() {
            status_subresource = true;
        }
        scale = scale.or_else(|| ScalePaths::of_version(version));
        for field in version
            .get("selectableFields")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(path) = field.get("jsonPath").and_then(Value::as_str) {
                selectable_fields.push(path.trim_start_matches('.').to_string());
            }
        }
        if let Some(schema) = version.pointer("/schema/openAPIV3Schema") {
            schemas.push((name.clone(), Arc::new(schema.clone())));
        }
        if let Some(columns) = version.get("additionalPrinterColumns") {
            printer_columns.push((name.clone(), Arc::new(columns.clone())));
        }
        if storage {
            served.insert(0, name)
        } else {
            served.push(name)
        }
    }
    if served.is_empty() {
        return Err("spec.versions: Invalid value: no served version".to_string());
    }
    Ok(ResourceType {
        group,
        versions: served,
        kind,
        plural,
        singular,
        short_names: strings(names.and_then(|n| n.get("shortNames"))),
        categories: strings(names.and_then(|n| n.get("categories"))),
        namespaced,
        status_subresource,
        scale,
        has_generation: true,
        selectable_fields,
        schemas,
        printer_columns,
        custom: true,
    })
}
