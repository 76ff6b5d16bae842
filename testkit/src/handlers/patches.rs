//! PATCH: JSON, merge and strategic merge patches onto the served object, and server-side apply
//! (which may create), all onto the update path of `write`.

use super::strict;
use super::write::{check_type_and_namespace, create_object, stale_check, write_update};
use super::*;

pub(super) fn patch(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let kind = PatchKind::from_content_type(&context.request.content_type)?;
    let body = body_json(context.request)?;
    let current = state.store.get(&context.key(name)).cloned();
    if kind == PatchKind::Apply {
        return apply_patch(state, context, name, current, body);
    }
    let current = current.ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    let served = context.served(current.clone())?;
    let patched = match kind {
        PatchKind::Json => patch::json_patch(&served, &body)?,
        PatchKind::Merge => patch::merge_patch(&served, &body),
        PatchKind::Strategic if context.resource_type.custom => {
            return Err(ApiError::unsupported_media_type(
                "the body of the request was in an unknown format - accepted media types \
                 include: application/json-patch+json, application/merge-patch+json, \
                 application/apply-patch+yaml",
            ));
        }
        PatchKind::Strategic | PatchKind::Apply => {
            strategic::patch(&served, &body, context.shape()).map_err(|e| {
                ApiError::unprocessable(format!("strategic merge patch failed: {e}"))
            })?
        }
    };
    strict::check_patch(context, kind, &body, &patched)?;
    stale_check(context, &current, &patched, name)?;
    let stored = write_update(state, context, &current, patched, false)?;
    Ok(Reply::Json(200, context.served(stored)?))
}

fn apply_patch(
    state: &mut State,
    context: &Context<'_>,
    name: &str,
    current: Option<Value>,
    mut config: Value,
) -> ApiResult<Reply> {
    if context.request.query.get("fieldManager").is_none() {
        return Err(ApiError::unprocessable(
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
        ));
    }
    // The configuration as sent (its namespace, if any, is in the error).
    strict::check_apply(context, &config, name)?;
    check_type_and_namespace(context, &mut config)?;
    match meta_str(&config, "name") {
        Some(n) if n != name => {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({n}) does not match the name on the URL ({name})"
            )));
        }
        _ => config["metadata"]["name"] = json!(name),
    }
    let manager = context.manager(true);
    let now = objects::now();
    let scope = if context.status_write() {
        apply::Scope::Status
    } else {
        apply::Scope::Main {
            status_subresource: context.resource_type.status_subresource,
        }
    };
    let request = apply::Apply {
        manager: &manager,
        force: context.request.query.flag("force"),
        scope,
        shape: context.shape(),
        now: &now,
    };
    match current {
        None if context.status_write() => Err(ApiError::not_found(context.subject(name))),
        None => {
            let mut created = apply::apply(None, &config, &request)?;
            created["apiVersion"] = config["apiVersion"].clone();
            created["kind"] = config["kind"].clone();
            created["metadata"]["name"] = json!(name);
            if let Some(ns) = context
                .namespace()
                .filter(|_| context.resource_type.namespaced)
            {
                created["metadata"]["namespace"] = json!(ns);
            }
            let managed_fields = created["metadata"]["managedFields"].clone();
            let stored = create_object(state, context, created, Some(managed_fields))?;
            Ok(Reply::Json(201, context.served(stored)?))
        }
        Some(current) => {
            stale_check(context, &current, &config, name)?;
            let at_request = context.at_version(current.clone(), &context.version)?;
            let merged = apply::apply(Some(&at_request), &config, &request)?;
            let stored = write_update(state, context, &current, merged, true)?;
            Ok(Reply::Json(200, context.served(stored)?))
        }
    }
}
