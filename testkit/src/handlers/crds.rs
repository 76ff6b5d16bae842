//! Writes of `CustomResourceDefinition` objects: their own admission (the name must be
//! `<plural>.<group>`, `spec.conversion` defaults to `None`), and what kube-apiserver's CRD
//! controllers do once one is stored: accept its names and establish it, in a status write of
//! their own (`kube-apiserver`, subresource `status`). A created CRD is answered as stored, not
//! yet established; the establishing write follows at once (a MODIFIED event), where the real
//! controllers take a moment, so clients that wait for `Established` work on both.

use super::*;

/// Whether a context writes CRDs.
pub(super) fn is_crd(context: &Context<'_>) -> bool {
    context.resource_type.group == "apiextensions.k8s.io"
        && context.resource_type.plural == "customresourcedefinitions"
}

/// Checks a CRD before it is stored; a new one gets the status the API server gives it.
pub(super) fn admit(
    context: &Context<'_>,
    object: &mut Value,
    old: Option<&Value>,
    name: &str,
) -> ApiResult<()> {
    let definition = resources::from_crd(object).map_err(|e| {
        context.invalid(
            name,
            &[FieldError::new("", FieldErrorKind::Invalid, None, e)],
        )
    })?;
    let expected = format!("{}.{}", definition.plural, definition.group);
    if name != expected {
        let error = FieldError::new(
            "metadata.name",
            FieldErrorKind::Invalid,
            Some(format!("{name:?}")),
            "must be spec.names.plural+\".\"+spec.group",
        );
        return Err(context.invalid(name, &[error]));
    }
    let forbidden = forbidden_schema_keywords(object);
    if !forbidden.is_empty() {
        return Err(context.invalid(name, &forbidden));
    }
    if object.pointer("/spec/conversion").is_none() {
        object["spec"]["conversion"] = json!({"strategy": "None"});
    }
    if old.is_none() {
        object["status"] = json!({
            "acceptedNames": {"kind": "", "plural": ""},
            "conditions": null,
            "storedVersions": [definition.storage_version()],
        });
    }
    Ok(())
}

/// The schema keywords kube-apiserver forbids in a CRD: `uniqueItems: true` (its check is
/// quadratic). A schema shared by every version is reported under `spec.validation`, where the
/// API server's internal form keeps it.
fn forbidden_schema_keywords(crd: &Value) -> Vec<FieldError> {
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let schemas: Vec<&Value> = versions
        .iter()
        .filter_map(|v| v.pointer("/schema/openAPIV3Schema"))
        .collect();
    let shared = schemas.len() == versions.len() && schemas.windows(2).all(|w| w[0] == w[1]);
    let mut errors = Vec::new();
    if shared && let Some(schema) = schemas.first() {
        unique_items(schema, "spec.validation.openAPIV3Schema", &mut errors);
    } else {
        for (i, version) in versions.iter().enumerate() {
            if let Some(schema) = version.pointer("/schema/openAPIV3Schema") {
                let path = format!("spec.versions[{i}].schema.openAPIV3Schema");
                unique_items(schema, &path, &mut errors);
            }
        }
    }
    errors
}

fn unique_items(schema: &Value, path: &str, errors: &mut Vec<FieldError>) {
    if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
        errors.push(FieldError::new(
            format!("{path}.uniqueItems"),
            FieldErrorKind::Forbidden,
            None,
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            unique_items(property, &format!("{path}.properties[{name}]"), errors);
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(inner) = schema.get(key).filter(|v| v.is_object()) {
            unique_items(inner, &format!("{path}.{key}"), errors);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, inner) in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            unique_items(inner, &format!("{path}.{key}[{i}]"), errors);
        }
    }
}

/// What follows a stored CRD write: its kind is served (again), and a new CRD is established.
pub(super) fn after_commit(state: &mut State, context: &Context<'_>, stored: &Value) {
    let Ok(definition) = resources::from_crd(stored) else {
        return;
    };
    state.catalog.install(definition);
    if stored
        .pointer("/status/conditions")
        .is_some_and(Value::is_null)
    {
        establish(state, context, stored);
    }
}

fn establish(state: &mut State, context: &Context<'_>, stored: &Value) {
    let mut established = stored.clone();
    let now = objects::now();
    established["status"]["acceptedNames"] = stored["spec"]["names"].clone();
    established["status"]["conditions"] = json!([
        {"type": "NamesAccepted", "status": "True", "lastTransitionTime": now, "reason": "NoConflicts", "message": "no conflicts found"},
        {"type": "Established", "status": "True", "lastTransitionTime": now, "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"},
    ]);
    let controllers = Manager {
        name: "kube-apiserver".into(),
        apply: false,
        api_version: "apiextensions.k8s.io/v1".into(),
        subresource: Some("status".into()),
    };
    managed::record_update(
        Some(stored),
        &mut established,
        &controllers,
        context.shape(),
        &now,
    );
    let name = meta_str(stored, "name").unwrap_or_default().to_string();
    state
        .store
        .commit(ChangeKind::Modified, context.key(&name), established);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_items_is_forbidden_where_the_versions_keep_their_schemas() {
        let unique = json!({"type": "object", "properties": {"tags": {
            "type": "array", "items": {"type": "string", "uniqueItems": true}}}});
        let plain = json!({"type": "object"});
        let crd = json!({"spec": {"versions": [
            {"name": "v1", "schema": {"openAPIV3Schema": plain}},
            {"name": "v2", "schema": {"openAPIV3Schema": unique}},
        ]}});
        let paths: Vec<String> = forbidden_schema_keywords(&crd)
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            paths,
            [
                "spec.versions[1].schema.openAPIV3Schema.properties[tags].items.uniqueItems: \
              Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes \
              quadratic"
            ]
        );
    }
}
