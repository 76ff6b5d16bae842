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
