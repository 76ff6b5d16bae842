//! Deletes of one object or a collection, with preconditions and propagation policies.

use super::*;

fn propagation(context: &Context<'_>, options: &Value) -> ApiResult<Propagation> {
    let policy = options
        .get("propagationPolicy")
        .and_then(Value::as_str)
        .or_else(|| context.request.query.get("propagationPolicy"));
    match policy {
        None | Some("Background") => Ok(Propagation::Background),
        Some("Foreground") => Ok(Propagation::Foreground),
        Some("Orphan") => Ok(Propagation::Orphan),
        Some(other) => Err(ApiError::bad_request(format!(
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: {other:?}: supported values: \"Foreground\", \"Background\", \"Orphan\""
        ))),
    }
}

pub(super) fn delete(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let options = body_json(context.request)?;
    let key = context.key(name);
    let current = state
        .store
        .get(&key)
        .cloned()
        .ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    for (field, label, consequence) in [
        ("uid", "UID", "deleted and then recreated"),
        ("resourceVersion", "ResourceVersion", "modified"),
    ] {
        if let Some(wanted) = options
            .pointer(&format!("/preconditions/{field}"))
            .and_then(Value::as_str)
        {
            let actual = meta_str(&current, field).unwrap_or_default();
            if wanted != actual {
                let by_kind = Subject {
                    group: &context.resource_type.group,
                    resource: &context.resource_type.kind,
                    name,
                };
                return Err(ApiError::conflict(
                    by_kind,
                    format!(
                        "the {label} in the precondition ({wanted}) does not match the {label} in \
                         record ({actual}). The object might have been {consequence}"
                    ),
                ));
            }
        }
    }
    let policy = propagation(context, &options)?;
    if context.request.query.dry_run()
        || options
            .get("dryRun")
            .is_some_and(|d| d.as_array().is_some_and(|a| !a.is_empty()))
    {
        return Ok(Reply::Json(200, context.served(current)?));
    }
    match gc::delete(state, &key, policy) {
        gc::Outcome::Pending(object) => Ok(Reply::Json(200, context.served(object)?)),
        gc::Outcome::Deleted(object) => Ok(Reply::Json(
            200,
            json!({
                "kind": "Status",
                "apiVersion": "v1",
                "metadata": {},
                "status": "Success",
                "details": success_details(context.subject(name), meta_str(&object, "uid")),
            }),
        )),
    }
}

/// The details of a delete's `Success`: the object's name, group (not the core group's empty
/// one), plural and uid.
fn success_details(subject: Subject<'_>, uid: Option<&str>) -> Value {
    let mut details = subject.details();
    details["uid"] = json!(uid);
    details
}

pub(super) fn delete_collection(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let options = body_json(context.request)?;
    let policy = propagation(context, &options)?;
    let filter = filter(context)?;
    let rt = &context.resource_type;
    let keys: Vec<ObjectKey> = state
        .store
        .range(&rt.group, &rt.plural, context.namespace(), None)
        .filter(|(_, o)| filter.matches(o))
        .map(|(k, _)| k.clone())
        .collect();
    let mut items = Vec::new();
    for key in keys {
        if context.request.query.dry_run() {
            if let Some(object) = state.store.get(&key).cloned() {
                items.push(context.served(object)?);
            }
            continue;
        }
        let (gc::Outcome::Pending(object) | gc::Outcome::Deleted(object)) =
            gc::delete(state, &key, policy);
        items.push(context.served(object)?);
    }
    Ok(Reply::Json(
        200,
        json!({
            "apiVersion": rt.api_version(&context.version),
            "kind": format!("{}List", rt.kind),
            "metadata": {"resourceVersion": state.store.revision().to_string()},
            "items": items,
        }),
    ))
}
