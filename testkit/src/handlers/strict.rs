//! Fields a kind's schema does not declare, as kube-apiserver treats them: a create or update
//! drops them, or with `fieldValidation=Strict` refuses the body (400, "strict decoding
//! error"); a strict JSON or merge patch is refused with the patched object (422, field
//! `patch`), a strict strategic merge patch with the patch itself; a server-side apply refuses
//! them whatever the validation (500, structured-merge-diff's "field not declared in schema").

use super::*;
use crate::openapi;

/// The schema that decides which fields a kind has: a CRD version's, or a built-in kind's.
pub(super) fn schema_of<'c>(context: &'c Context<'_>) -> Option<&'c Value> {
    let rt = &context.resource_type;
    rt.schema(&context.version)
        .or_else(|| openapi::builtin_schema(&rt.group, &context.version, &rt.kind))
}

fn strict(context: &Context<'_>) -> bool {
    context.request.query.get("fieldValidation") == Some("Strict")
}

fn unknown_list(unknown: &[String]) -> String {
    unknown
        .iter()
        .map(|f| format!("unknown field {f:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A create or update body: strict validation refuses unknown fields (they are dropped later,
/// with the CRD schema's pruning or [`drop_unknown`]).
pub(super) fn check_body(context: &Context<'_>, object: &Value) -> ApiResult<()> {
    let Some(schema) = schema_of(context).filter(|_| strict(context)) else {
        return Ok(());
    };
    let unknown = schema::unknown_fields(object, schema);
    if unknown.is_empty() {
        return Ok(());
    }
    let kind = &context.resource_type.kind;
    Err(ApiError::bad_request(format!(
        "{kind} in version {:?} cannot be handled as a {kind}: strict decoding error: {}",
        context.version,
        unknown_list(&unknown)
    )))
}

/// A patched object under strict validation: the 422 names the patch, and shows the patched
/// object (a strategic merge patch shows the patch, in Go's `%v` of a map).
pub(super) fn check_patch(
    context: &Context<'_>,
    kind: PatchKind,
    patch: &Value,
    patched: &Value,
) -> ApiResult<()> {
    let Some(schema) = schema_of(context).filter(|_| strict(context)) else {
        return Ok(());
    };
    let unknown = schema::unknown_fields(patched, schema);
    if unknown.is_empty() {
        return Ok(());
    }
    let shown = match kind {
        PatchKind::Strategic => go_value(patch),
        _ => patched.to_string(),
    };
    let error = FieldError::new(
        "patch",
        FieldErrorKind::Invalid,
        Some(format!("{shown:?}")),
        format!("strict decoding error: {}", unknown_list(&unknown)),
    );
    Err(ApiError::invalid("", "", "", &[error]))
}

/// An apply configuration: structured-merge-diff cannot type a field the schema lacks.
pub(super) fn check_apply(context: &Context<'_>, config: &Value, name: &str) -> ApiResult<()> {
    let Some(schema) = schema_of(context) else {
        return Ok(());
    };
    let Some(first) = schema::unknown_fields(config, schema).into_iter().next() else {
        return Ok(());
    };
    let rt = &context.resource_type;
    let namespace = meta_str(config, "namespace").unwrap_or_default();
    Err(ApiError::unclassified(format!(
        "failed to create typed patch object ({namespace}/{name}; {}/{}, Kind={}): .{first}: \
         field not declared in schema",
        rt.group, context.version, rt.kind
    )))
}

/// Drops the fields a built-in kind does not declare, as decoding into its Go type does.
pub(super) fn drop_unknown(context: &Context<'_>, object: &mut Value) {
    if context.resource_type.custom {
        return;
    }
    if let Some(schema) = schema_of(context) {
        schema::prune_unknown(object, schema);
    }
}

/// A JSON value as Go's `%v` prints the `map[string]interface{}` it decodes to.
fn go_value(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_value(v)))
                .collect();
            format!("map[{}]", entries.join(" "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", items.join(" "))
        }
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}
