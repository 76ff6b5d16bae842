//! `GET`, `PUT` and `PATCH` on `<plural>/<name>/scale`: the object seen as an `autoscaling/v1`
//! Scale, and a change of its `spec.replicas` written to the object's `specReplicasPath` through
//! the ordinary update (validation, resourceVersion checks, generation, watch events).

use super::write::{stale_check, write_update};
use super::*;
use crate::scale::{ScalePaths, view, with_replicas};

pub(super) fn scale(
    state: &mut State,
    context: &Context<'_>,
    name: &str,
    paths: &ScalePaths,
) -> ApiResult<Reply> {
    let current = state
        .store
        .get(&context.key(name))
        .cloned()
        .ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    let current_scale = view(&current, paths).map_err(ApiError::internal)?;
    let proposed = match context.request.verb {
        Verb::Get => return Ok(Reply::Json(200, current_scale)),
        Verb::Update => body_json(context.request)?,
        _ => {
            let body = body_json(context.request)?;
            match PatchKind::from_content_type(&context.request.content_type)? {
                PatchKind::Json => patch::json_patch(&current_scale, &body)?,
                PatchKind::Merge | PatchKind::Strategic => {
                    patch::merge_patch(&current_scale, &body)
                }
                PatchKind::Apply => {
                    return Err(ApiError::unsupported_media_type(
                        "server-side apply of the scale subresource is not supported by the testkit",
                    ));
                }
            }
        }
    };
    let replicas = proposed
        .pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    // No check of the Scale itself: the object's own validation refuses a negative count.
    stale_check(context, &current, &proposed, name)?;
    let scaled = with_replicas(current.clone(), paths, replicas);
    let stored = write_update(state, context, &current, scaled, false)?;
    let stored_scale = view(&stored, paths).map_err(ApiError::internal)?;
    Ok(Reply::Json(200, stored_scale))
}
