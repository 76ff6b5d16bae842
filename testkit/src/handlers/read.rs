//! Reads: get, list (selectors, limit/continue) and watch.

use super::*;

/// The `resourceVersion` a get or list asks for (`None` when absent or "0", which mean
/// "any"), refused as kube-apiserver refuses it: unparsable (a list's 400, a get's 500), or newer
/// than the server's (504 after the API server waited for it; the testkit does not wait).
fn requested_version(state: &State, context: &Context<'_>, list: bool) -> ApiResult<Option<u64>> {
    let Some(text) = context
        .request
        .query
        .get("resourceVersion")
        .filter(|v| !v.is_empty())
    else {
        return Ok(None);
    };
    let version = text.parse::<u64>().map_err(|_| {
        let problem = format!(
            "resourceVersion: Invalid value: {text:?}: strconv.ParseUint: parsing {text:?}: \
             invalid syntax"
        );
        if list {
            ApiError::bad_request(format!("invalid resource version: {problem}"))
        } else {
            ApiError::unclassified(problem)
        }
    })?;
    let current = state.store.revision();
    if version > current {
        return Err(ApiError::too_large_resource_version(version, current));
    }
    Ok((version != 0).then_some(version))
}

pub(super) fn get(state: &State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    requested_version(state, context, false)?;
    let object = state
        .store
        .get(&context.key(name))
        .ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    Ok(Reply::Json(200, context.served(object.clone())?))
}

fn encode_continue(revision: u64, after: &ObjectKey) -> String {
    let token = json!({"rv": revision, "ns": after.namespace, "name": after.name}).to_string();
    token.bytes().map(|b| format!("{b:02x}")).collect()
}

fn decode_continue(token: &str) -> ApiResult<(u64, String, String)> {
    let bad = || ApiError::bad_request(format!("continue key is not valid: {token:?}"));
    let bytes: Option<Vec<u8>> = (0..token.len())
        .step_by(2)
        .map(|i| {
            token
                .get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect();
    let value: Value = serde_json::from_slice(&bytes.ok_or_else(bad)?).map_err(|_| bad())?;
    let revision = value.get("rv").and_then(Value::as_u64).ok_or_else(bad)?;
    let text = |k: &str| {
        value
            .get(k)
            .and_then(Value::as_str)
            .map(ToString::to_string)
            .ok_or_else(bad)
    };
    Ok((revision, text("ns")?, text("name")?))
}

pub(super) fn list(state: &State, context: &Context<'_>) -> ApiResult<Reply> {
    let query = &context.request.query;
    let filter = filter(context)?;
    let limit = query.number("limit")?.filter(|l| *l > 0);
    let requested = requested_version(state, context, true)?;
    let exact = match (
        query.get("resourceVersion"),
        query.get("resourceVersionMatch"),
    ) {
        (None, Some(_)) => {
            let error = FieldError::new(
                "resourceVersionMatch",
                FieldErrorKind::Forbidden,
                None,
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            );
            return Err(ApiError::invalid(
                "meta.k8s.io",
                "ListOptions",
                "",
                &[error],
            ));
        }
        (Some(_), Some("Exact")) => requested,
        _ => None,
    };
    let (snapshot, after) = match query.get("continue") {
        Some(token) => {
            let (revision, namespace, name) = decode_continue(token)?;
            let too_old = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter";
            state.store.check_resumable(revision, too_old)?;
            (Some(revision), Some((namespace, name)))
        }
        None => (exact, None),
    };
    let revision = snapshot.unwrap_or_else(|| state.store.revision());
    let rt = &context.resource_type;
    let after = after
        .as_ref()
        .map(|(ns, name)| (ns.as_str(), name.as_str()));
    // With no change since the snapshot, the live objects are the snapshot.
    let snapshot = snapshot.filter(|r| *r != state.store.revision());
    let snapshot_objects = match snapshot {
        Some(revision) => {
            state.store.check_resumable(revision, "resourceVersion")?;
            state
                .store
                .range_at(&rt.group, &rt.plural, context.namespace(), after, revision)
        }
        None => Vec::new(),
    };
    let objects: Box<dyn Iterator<Item = (&ObjectKey, &Value)>> = match snapshot {
        Some(_) => Box::new(snapshot_objects.iter().map(|(k, v)| (k, v))),
        None => Box::new(
            state
                .store
                .range(&rt.group, &rt.plural, context.namespace(), after),
        ),
    };
    let mut items = Vec::new();
    let mut next = None;
    let mut remaining = 0u64;
    for (key, object) in objects.filter(|(_, o)| filter.matches(o)) {
        if limit.is_some_and(|l| items.len() as u64 >= l) {
            remaining += 1;
            continue;
        }
        items.push(context.served(object.clone())?);
        if limit.is_some_and(|l| items.len() as u64 == l) {
            next = Some(key.clone());
        }
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let Some(last) = next.filter(|_| remaining > 0) {
        metadata["continue"] = json!(encode_continue(revision, &last));
        metadata["remainingItemCount"] = json!(remaining);
    }
    let (api_version, kind) = if context.request.metadata_only {
        (
            "meta.k8s.io/v1".to_string(),
            "PartialObjectMetadataList".to_string(),
        )
    } else {
        (rt.api_version(&context.version), format!("{}List", rt.kind))
    };
    Ok(Reply::Json(
        200,
        json!({"apiVersion": api_version, "kind": kind, "metadata": metadata, "items": items}),
    ))
}

pub(super) fn watch(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let query = &context.request.query;
    let since = match query.get("resourceVersion") {
        None | Some("0") => None,
        Some(rv) => Some(
            rv.parse::<u64>()
                .map_err(|_| ApiError::bad_request(format!("invalid resource version: {rv:?}")))?,
        ),
    };
    let spec = WatchSpec {
        group: context.resource_type.group.clone(),
        plural: context.resource_type.plural.clone(),
        namespace: context.namespace().map(ToString::to_string),
        filter: filter(context)?,
        since,
        bookmarks: query.flag("allowWatchBookmarks"),
        initial_events_end: query.flag("sendInitialEvents"),
    };
    let receiver = state.store.watch(spec)?;
    Ok(Reply::Watch(WatchReply {
        receiver,
        api_version: context.resource_type.api_version(&context.version),
        kind: context.resource_type.kind.clone(),
        timeout: query.number("timeoutSeconds")?.map(Duration::from_secs),
        metadata_only: context.request.metadata_only,
        table: context
            .request
            .table
            .then(|| Box::new((context.resource_type.clone(), context.version.clone()))),
        #[cfg(feature = "webhook")]
        webhooks: context.webhooks.clone(),
    }))
}
