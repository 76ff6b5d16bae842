//! Writes: create, update (PUT), and the update path they share with `patches`: immutable
//! metadata, status separation, schema admission, generation, managedFields, no-op detection,
//! and deletion once the last finalizer is gone.

use super::*;
use super::{crds, strict};
use crate::{builtins, scale};

pub(super) fn check_type_and_namespace(context: &Context<'_>, object: &mut Value) -> ApiResult<()> {
    if !object.is_object() {
        return Err(ApiError::bad_request(
            "the body of the request must be a JSON object",
        ));
    }
    let expected = context.resource_type.api_version(&context.version);
    match object.get("apiVersion").and_then(Value::as_str) {
        Some(v) if v != expected => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({expected})"
            )));
        }
        _ => object["apiVersion"] = json!(expected),
    }
    match object.get("kind").and_then(Value::as_str) {
        Some(k) if k != context.resource_type.kind => {
            return Err(ApiError::bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                context.resource_type.kind
            )));
        }
        _ => object["kind"] = json!(context.resource_type.kind),
    }
    if !object.get("metadata").is_some_and(Value::is_object) {
        object["metadata"] = json!({});
    }
    if context.resource_type.namespaced {
        let url_namespace = context.namespace().unwrap_or_default();
        match meta_str(object, "namespace") {
            Some(ns) if ns != url_namespace => {
                return Err(ApiError::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request",
                ));
            }
            _ => object["metadata"]["namespace"] = json!(url_namespace),
        }
    } else if let Some(meta) = object["metadata"].as_object_mut() {
        meta.remove("namespace");
    }
    Ok(())
}

/// A namespaced object needs an existing namespace that is not terminating; `name` is the
/// object's (the API server names it in the 403).
fn check_namespace_accepts(state: &State, context: &Context<'_>, name: &str) -> ApiResult<()> {
    if !context.resource_type.namespaced {
        return Ok(());
    }
    let namespace = context.namespace().unwrap_or_default();
    let key = ObjectKey {
        group: String::new(),
        plural: "namespaces".into(),
        namespace: String::new(),
        name: namespace.to_string(),
    };
    match state.store.get(&key) {
        None => Err(ApiError::not_found(Subject {
            group: "",
            resource: "namespaces",
            name: namespace,
        })),
        Some(ns) if objects::is_deleting(ns) => Err(ApiError::forbidden(format!(
            "{} \"{}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
            context.resource_type.plural, name
        ))),
        Some(_) => Ok(()),
    }
}

/// Schema processing: a custom resource's CRD schema prunes, defaults and validates; a built-in
/// kind drops the fields its type lacks. CRD objects get their own checks.
fn admit(
    context: &Context<'_>,
    object: &mut Value,
    old: Option<&Value>,
    name: &str,
) -> ApiResult<()> {
    if let Some(schema) = context.resource_type.schema(&context.version) {
        schema::prune_and_default(object, schema);
        let scope = if context.status_write() {
            schema::Scope::Status
        } else {
            schema::Scope::Object
        };
        let mut errors = schema::validate(object, old, schema, scope);
        if let Some(paths) = &context.resource_type.scale {
            errors.extend(scale::validate(
                object,
                paths,
                scope == schema::Scope::Status,
            ));
        }
        if !errors.is_empty() {
            return Err(context.invalid(name, &errors));
        }
    } else {
        strict::drop_unknown(context, object);
    }
    if crds::is_crd(context) {
        crds::admit(context, object, old, name)?;
    }
    Ok(())
}

fn after_commit(state: &mut State, context: &Context<'_>, object: &Value) {
    if crds::is_crd(context) {
        crds::after_commit(state, context, object);
    }
}

pub(super) fn create(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let mut object = body_json(context.request)?;
    check_type_and_namespace(context, &mut object)?;
    strict::check_body(context, &object)?;
    let stored = create_object(state, context, object, None)?;
    Ok(Reply::Json(201, context.served(stored)?))
}

/// Creates an object; `applied` carries server-side apply's managedFields when the create comes
/// from an apply patch.
pub(super) fn create_object(
    state: &mut State,
    context: &Context<'_>,
    mut object: Value,
    applied: Option<Value>,
) -> ApiResult<Value> {
    let name = match (meta_str(&object, "name"), meta_str(&object, "generateName")) {
        (Some(name), _) => name.to_string(),
        (None, Some(prefix)) => {
            state.name_seed += 1;
            format!("{prefix}{}", objects::name_suffix(state.name_seed))
        }
        (None, None) => {
            let error = FieldError::new(
                "metadata.name",
                FieldErrorKind::Required,
                None,
                "name or generateName is required",
            );
            return Err(context.invalid("", &[error]));
        }
    };
    check_namespace_accepts(state, context, &name)?;
    if let Some(error) = objects::check_name(&name) {
        return Err(context.invalid(&name, &[error]));
    }
    let key = context.key(&name);
    if state.store.get(&key).is_some() {
        return Err(ApiError::already_exists(context.subject(&name)));
    }
    let rt = &context.resource_type;
    let meta = object["metadata"]
        .as_object_mut()
        .expect("metadata checked to be an object");
    for field in [
        "resourceVersion",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "managedFields",
        "generation",
        "selfLink",
    ] {
        meta.remove(field);
    }
    meta.insert("name".into(), json!(name));
    meta.insert("uid".into(), json!(state.store.new_uid()));
    meta.insert("creationTimestamp".into(), json!(objects::now()));
    if rt.has_generation {
        meta.insert("generation".into(), json!(1));
    }
    if rt.status_subresource && applied.is_none() {
        object.as_object_mut().map(|m| m.remove("status"));
    }
    builtins::normalize(&mut object);
    if !rt.custom {
        builtins::drop_empty_maps(&mut object);
    }
    admission_point(state, context, &mut object, None, StopAt::BeforeSchema)?;
    admit(context, &mut object, None, &name)?;
    admission_point(state, context, &mut object, None, StopAt::AfterSchema)?;
    match applied {
        Some(managed_fields) => object["metadata"]["managedFields"] = managed_fields,
        None => managed::record_update(
            None,
            &mut object,
            &context.manager(false),
            context.shape(),
            &objects::now(),
        ),
    }
    let object = context.at_storage_version(object)?;
    if context.request.query.dry_run() {
        return Ok(object);
    }
    let stored = state.store.commit(ChangeKind::Added, key, object);
    after_commit(state, context, &stored);
    Ok(stored)
}

pub(super) fn stale_check(
    context: &Context<'_>,
    current: &Value,
    proposed: &Value,
    name: &str,
) -> ApiResult<()> {
    match (
        meta_str(proposed, "resourceVersion"),
        meta_str(current, "resourceVersion"),
    ) {
        (Some(wanted), Some(actual)) if wanted != actual => {
            Err(ApiError::stale(context.subject(name)))
        }
        _ => Ok(()),
    }
}

pub(super) fn update(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let mut object = body_json(context.request)?;
    check_type_and_namespace(context, &mut object)?;
    let current = state
        .store
        .get(&context.key(name))
        .cloned()
        .ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    if meta_str(&object, "name") != Some(name) {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            meta_str(&object, "name").unwrap_or_default()
        )));
    }
    if context.resource_type.custom && meta_str(&object, "resourceVersion").is_none() {
        let error = FieldError::new(
            "metadata.resourceVersion",
            FieldErrorKind::Invalid,
            Some("0x0".into()),
            "must be specified for an update",
        );
        return Err(context.invalid(name, &[error]));
    }
    stale_check(context, &current, &object, name)?;
    strict::check_body(context, &object)?;
    let stored = write_update(state, context, &current, object, false)?;
    Ok(Reply::Json(200, context.served(stored)?))
}

/// The shared update path of PUT and PATCH.
pub(super) fn write_update(
    state: &mut State,
    context: &Context<'_>,
    stored: &Value,
    mut new: Value,
    managed_done: bool,
) -> ApiResult<Value> {
    // Everything up to the store happens at the request's version, as the API server decodes,
    // admits and validates there and converts to the storage version last.
    let old = &context.at_version(stored.clone(), &context.version)?;
    let name = meta_str(old, "name").unwrap_or_default().to_string();
    if !new.is_object() {
        return Err(ApiError::unprocessable(format!(
            "the patched {} {name:?} is {}, not a JSON object",
            context.resource_type.kind,
            crate::status::render_value(&new)
        )));
    }
    let rt = &context.resource_type;
    let managed_fields = new.pointer("/metadata/managedFields").cloned();
    objects::keep_immutable_metadata(old, &mut new);
    if managed_done && let Some(managed_fields) = managed_fields {
        new["metadata"]["managedFields"] = managed_fields;
    }
    new["apiVersion"] = old["apiVersion"].clone();
    new["kind"] = old["kind"].clone();
    let mut new = objects::separate_status(old, new, context.status_write(), rt.status_subresource);
    builtins::normalize(&mut new);
    if !rt.custom {
        builtins::drop_empty_maps(&mut new);
    }
    let mut errors = builtins::check_immutable(old, &new);
    let finalizer_errors = objects::check_finalizers(old, &new);
    if rt.custom {
        // The apiextensions server checks a custom resource's metadata twice (registry and
        // validator): its causes list the finalizer error twice (the message shows it once).
        errors.extend(finalizer_errors.iter().cloned());
    }
    errors.extend(finalizer_errors);
    if !errors.is_empty() {
        return Err(context.invalid(&name, &errors));
    }
    admission_point(state, context, &mut new, Some(old), StopAt::BeforeSchema)?;
    admit(context, &mut new, Some(old), &name)?;
    admission_point(state, context, &mut new, Some(old), StopAt::AfterSchema)?;
    if rt.has_generation && objects::spec_changed(old, &new, rt.status_subresource) {
        let generation = old
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        new["metadata"]["generation"] = json!(generation + 1);
    }
    if !managed_done {
        managed::record_update(
            Some(old),
            &mut new,
            &context.manager(false),
            context.shape(),
            &objects::now(),
        );
    }
    if objects::noop_view(&new) == objects::noop_view(old) || context.request.query.dry_run() {
        return if context.request.query.dry_run() {
            context.at_storage_version(new)
        } else {
            Ok(stored.clone())
        };
    }
    let new = context.at_storage_version(new)?;
    let key = context.key(&name);
    if objects::is_deleting(&new) && objects::finalizers(&new).is_empty() {
        let stored = state.store.commit(ChangeKind::Deleted, key.clone(), new);
        gc::after_removal(state, &key, &stored);
        gc::collect(state);
        return Ok(stored);
    }
    let stored = state.store.commit(ChangeKind::Modified, key, new);
    after_commit(state, context, &stored);
    Ok(stored)
}
