//! The verbs on resources: get, list, watch, create, update, patch, delete, deletecollection,
//! each applying Kubernetes' object semantics and the custom resource schema engine.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::discovery::Catalog;
use super::gc::{self, Propagation};
use super::objects::{self, meta_str};
use super::patch::{self, PatchKind, apply, managed::{self, Manager}, strategic};
use super::request::{Query, Target, Verb};
use super::resources::{self, ResourceType};
use super::schema;
use super::selectors::{FieldSelector, Filter, LabelSelector};
use super::shape::Shape;
use super::status::{ApiError, ApiResult, FieldError, FieldErrorKind, Subject};
use super::store::{ChangeKind, ObjectKey, Store, WatchMessage, WatchSpec};

/// Everything behind the server lock.
pub struct State {
    /// Served types.
    pub catalog: Catalog,
    /// Objects, history, watches.
    pub store: Store,
    name_seed: u64,
}

impl State {
    /// A server state with the default namespaces.
    pub fn new(history_limit: usize) -> Self {
        let mut state = Self { catalog: Catalog::default(), store: Store::new(history_limit), name_seed: 0 };
        for name in ["default", "kube-system", "kube-public", "kube-node-lease"] {
            let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}});
            let key = ObjectKey { group: String::new(), plural: "namespaces".into(), namespace: String::new(), name: name.into() };
            let mut namespace = namespace;
            namespace["metadata"]["uid"] = json!(state.store.new_uid());
            namespace["metadata"]["creationTimestamp"] = json!(objects::now());
            state.store.commit(ChangeKind::Added, key, namespace);
        }
        state
    }
}

/// A resource request, parsed.
#[derive(Debug, Clone)]
pub struct Request {
    /// The addressed resource.
    pub target: Target,
    /// The verb.
    pub verb: Verb,
    /// Query parameters.
    pub query: Query,
    /// Body bytes.
    pub body: bytes::Bytes,
    /// `Content-Type`.
    pub content_type: String,
    /// `User-Agent`, for the default field manager name.
    pub user_agent: String,
    /// `Accept` asked for `PartialObjectMetadata` (metadata-only watches and lists).
    pub metadata_only: bool,
}

/// What a handler answers.
pub enum Reply {
    /// A JSON body with a status code.
    Json(u16, Value),
    /// A watch stream.
    Watch(WatchReply),
}

/// An open watch, ready to stream.
pub struct WatchReply {
    /// Events as they come.
    pub receiver: mpsc::UnboundedReceiver<WatchMessage>,
    /// apiVersion to serve objects at.
    pub api_version: String,
    /// Kind of the objects.
    pub kind: String,
    /// `timeoutSeconds`.
    pub timeout: Option<Duration>,
    /// Serve objects as `PartialObjectMetadata`.
    pub metadata_only: bool,
}

/// An object reduced to `PartialObjectMetadata`, as served to metadata-only clients.
pub fn partial_metadata(object: &Value) -> Value {
    json!({"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": object.get("metadata").cloned().unwrap_or_else(|| json!({}))})
}

struct Context<'a> {
    resource_type: ResourceType,
    version: String,
    request: &'a Request,
}

impl Context<'_> {
    fn namespace(&self) -> Option<&str> {
        self.request.target.namespace.as_deref()
    }

    fn subject<'s>(&'s self, name: &'s str) -> Subject<'s> {
        Subject { group: &self.resource_type.group, resource: &self.resource_type.plural, name }
    }

    fn key(&self, name: &str) -> ObjectKey {
        objects::key(&self.resource_type, self.namespace(), name)
    }

    fn shape(&self) -> Shape<'_> {
        Shape::root(self.resource_type.schema(&self.version))
    }

    fn status_write(&self) -> bool {
        self.request.target.subresource.as_deref() == Some("status")
    }

    fn served(&self, object: Value) -> Value {
        let object = objects::served(object, &self.resource_type, &self.version);
        if self.request.metadata_only && matches!(self.request.verb, Verb::Get | Verb::List) { partial_metadata(&object) } else { object }
    }

    fn manager(&self, apply: bool) -> Manager {
        let fallback = self.request.user_agent.split('/').next().unwrap_or_default();
        let name = self.request.query.get("fieldManager").unwrap_or(if fallback.is_empty() { "unknown" } else { fallback });
        Manager {
            name: name.to_string(),
            apply,
            api_version: self.resource_type.api_version(&self.version),
            subresource: self.request.target.subresource.clone(),
        }
    }

    fn invalid(&self, name: &str, errors: &[FieldError]) -> ApiError {
        ApiError::invalid(&self.resource_type.group, &self.resource_type.kind, name, errors)
    }
}

/// Handles a request on a resource.
pub fn handle(state: &mut State, request: &Request) -> ApiResult<Reply> {
    let target = &request.target;
    let resource_type = state
        .catalog
        .find(&target.group, &target.version, &target.plural)
        .cloned()
        .ok_or_else(|| ApiError::no_route(&format!("{}/{}/{}", target.group, target.version, target.plural)))?;
    if target.namespace.is_some() && !resource_type.namespaced {
        return Err(ApiError::no_route(&target.plural));
    }
    match target.subresource.as_deref() {
        None => {}
        Some("status") if resource_type.status_subresource && matches!(request.verb, Verb::Get | Verb::Update | Verb::Patch) => {}
        Some(other) => return Err(ApiError::no_route(&format!("{}/{other}", target.plural))),
    }
    let context = Context { version: target.version.clone(), resource_type, request };
    let name = target.name.clone().unwrap_or_default();
    match request.verb {
        Verb::Get => get(state, &context, &name),
        Verb::List => list(state, &context),
        Verb::Watch => watch(state, &context),
        Verb::Create => create(state, &context),
        Verb::Update => update(state, &context, &name),
        Verb::Patch => patch(state, &context, &name),
        Verb::Delete => delete(state, &context, &name),
        Verb::DeleteCollection => delete_collection(state, &context),
    }
}

fn body_json(request: &Request) -> ApiResult<Value> {
    if request.body.is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&request.body).map_err(|e| ApiError::bad_request(format!("the body of the request could not be decoded as JSON: {e}")))
}

fn get(state: &State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let object = state.store.get(&context.key(name)).ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    Ok(Reply::Json(200, context.served(object.clone())))
}

fn filter(context: &Context<'_>) -> ApiResult<Filter> {
    let query = &context.request.query;
    Ok(Filter {
        labels: query.get("labelSelector").map(LabelSelector::parse).transpose()?.unwrap_or_default(),
        fields: query.get("fieldSelector").map(|f| FieldSelector::parse(f, &context.resource_type)).transpose()?.unwrap_or_default(),
    })
}

fn encode_continue(revision: u64, after: &ObjectKey) -> String {
    let token = json!({"rv": revision, "ns": after.namespace, "name": after.name}).to_string();
    token.bytes().map(|b| format!("{b:02x}")).collect()
}

fn decode_continue(token: &str) -> ApiResult<(u64, String, String)> {
    let bad = || ApiError::bad_request(format!("continue key is not valid: {token:?}"));
    let bytes: Option<Vec<u8>> = (0..token.len()).step_by(2).map(|i| token.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect();
    let value: Value = serde_json::from_slice(&bytes.ok_or_else(bad)?).map_err(|_| bad())?;
    let revision = value.get("rv").and_then(Value::as_u64).ok_or_else(bad)?;
    let text = |k: &str| value.get(k).and_then(Value::as_str).map(ToString::to_string).ok_or_else(bad);
    Ok((revision, text("ns")?, text("name")?))
}

fn list(state: &State, context: &Context<'_>) -> ApiResult<Reply> {
    let query = &context.request.query;
    let filter = filter(context)?;
    let limit = query.number("limit")?.filter(|l| *l > 0);
    let (revision, after) = match query.get("continue") {
        Some(token) => {
            let (revision, namespace, name) = decode_continue(token)?;
            state.store.check_resumable(revision, "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter")?;
            (revision, Some((namespace, name)))
        }
        None => (state.store.revision(), None),
    };
    let rt = &context.resource_type;
    let mut items = Vec::new();
    let mut next = None;
    let mut remaining = 0u64;
    for (key, object) in state.store.range(&rt.group, &rt.plural, context.namespace()) {
        if after.as_ref().is_some_and(|(ns, name)| (key.namespace.as_str(), key.name.as_str()) <= (ns.as_str(), name.as_str())) {
            continue;
        }
        if !filter.matches(object) {
            continue;
        }
        if limit.is_some_and(|l| items.len() as u64 >= l) {
            remaining += 1;
            continue;
        }
        items.push(context.served(object.clone()));
        if limit.is_some_and(|l| items.len() as u64 == l) {
            next = Some(key.clone());
        }
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if remaining > 0 {
        if let Some(last) = next {
            metadata["continue"] = json!(encode_continue(revision, &last));
            metadata["remainingItemCount"] = json!(remaining);
        }
    }
    let (api_version, kind) = if context.request.metadata_only {
        ("meta.k8s.io/v1".to_string(), "PartialObjectMetadataList".to_string())
    } else {
        (rt.api_version(&context.version), format!("{}List", rt.kind))
    };
    Ok(Reply::Json(200, json!({"apiVersion": api_version, "kind": kind, "metadata": metadata, "items": items})))
}

fn watch(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let query = &context.request.query;
    let since = match query.get("resourceVersion") {
        None | Some("0") => None,
        Some(rv) => Some(rv.parse::<u64>().map_err(|_| ApiError::bad_request(format!("invalid resource version: {rv:?}")))?),
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
    }))
}

fn check_type_and_namespace(context: &Context<'_>, object: &mut Value) -> ApiResult<()> {
    if !object.is_object() {
        return Err(ApiError::bad_request("the body of the request must be a JSON object"));
    }
    let expected = context.resource_type.api_version(&context.version);
    match object.get("apiVersion").and_then(Value::as_str) {
        Some(v) if v != expected => {
            return Err(ApiError::bad_request(format!("the API version in the data ({v}) does not match the expected API version ({expected})")));
        }
        _ => object["apiVersion"] = json!(expected),
    }
    match object.get("kind").and_then(Value::as_str) {
        Some(k) if k != context.resource_type.kind => {
            return Err(ApiError::bad_request(format!("the kind in the data ({k}) does not match the expected kind ({})", context.resource_type.kind)));
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
                return Err(ApiError::bad_request("the namespace of the provided object does not match the namespace sent on the request"));
            }
            _ => object["metadata"]["namespace"] = json!(url_namespace),
        }
    } else if let Some(meta) = object["metadata"].as_object_mut() {
        meta.remove("namespace");
    }
    Ok(())
}

fn check_namespace_accepts(state: &State, context: &Context<'_>) -> ApiResult<()> {
    if !context.resource_type.namespaced {
        return Ok(());
    }
    let namespace = context.namespace().unwrap_or_default();
    let key = ObjectKey { group: String::new(), plural: "namespaces".into(), namespace: String::new(), name: namespace.to_string() };
    match state.store.get(&key) {
        None => Err(ApiError::not_found(Subject { group: "", resource: "namespaces", name: namespace })),
        Some(ns) if objects::is_deleting(ns) => Err(ApiError::forbidden(format!(
            "{} \"{}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
            context.resource_type.plural,
            meta_str(ns, "name").unwrap_or_default()
        ))),
        Some(_) => Ok(()),
    }
}

/// Schema processing of custom resources, and checks of CRD objects themselves.
fn admit(context: &Context<'_>, object: &mut Value, old: Option<&Value>, name: &str) -> ApiResult<()> {
    if let Some(schema) = context.resource_type.schema(&context.version) {
        schema::prune_and_default(object, schema);
        let errors = schema::validate(object, old, schema);
        if !errors.is_empty() {
            return Err(context.invalid(name, &errors));
        }
    }
    if context.resource_type.group == "apiextensions.k8s.io" && context.resource_type.plural == "customresourcedefinitions" {
        let definition = resources::from_crd(object).map_err(|e| context.invalid(name, &[FieldError::new("", FieldErrorKind::Invalid, None, e)]))?;
        let expected = format!("{}.{}", definition.plural, definition.group);
        if name != expected {
            let error = FieldError::new("metadata.name", FieldErrorKind::Invalid, Some(format!("{name:?}")), "must be spec.names.plural+\".\"+spec.group");
            return Err(context.invalid(name, &[error]));
        }
        object["status"] = json!({
            "acceptedNames": object["spec"]["names"].clone(),
            "storedVersions": [definition.storage_version()],
            "conditions": [
                {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": objects::now()},
                {"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": objects::now()},
            ],
        });
    }
    Ok(())
}

fn after_commit(state: &mut State, context: &Context<'_>, object: &Value) {
    if context.resource_type.group == "apiextensions.k8s.io" && context.resource_type.plural == "customresourcedefinitions" {
        if let Ok(definition) = resources::from_crd(object) {
            state.catalog.install(definition);
        }
    }
}

fn create(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let mut object = body_json(context.request)?;
    check_type_and_namespace(context, &mut object)?;
    let stored = create_object(state, context, object, None)?;
    Ok(Reply::Json(201, context.served(stored)))
}

/// Creates an object; `applied` carries server-side apply's managedFields when the create comes
/// from an apply patch.
fn create_object(state: &mut State, context: &Context<'_>, mut object: Value, applied: Option<Value>) -> ApiResult<Value> {
    check_namespace_accepts(state, context)?;
    let name = match (meta_str(&object, "name"), meta_str(&object, "generateName")) {
        (Some(name), _) => name.to_string(),
        (None, Some(prefix)) => {
            state.name_seed += 1;
            format!("{prefix}{}", objects::name_suffix(state.name_seed))
        }
        (None, None) => {
            let error = FieldError::new("metadata.name", FieldErrorKind::Required, None, "name or generateName is required");
            return Err(context.invalid("", &[error]));
        }
    };
    if let Some(error) = objects::check_name(&name) {
        return Err(context.invalid(&name, &[error]));
    }
    let key = context.key(&name);
    if state.store.get(&key).is_some() {
        return Err(ApiError::already_exists(context.subject(&name)));
    }
    let rt = &context.resource_type;
    let meta = object["metadata"].as_object_mut().expect("metadata checked to be an object");
    for field in ["resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "generation", "selfLink"] {
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
    admit(context, &mut object, None, &name)?;
    match applied {
        Some(managed_fields) => object["metadata"]["managedFields"] = managed_fields,
        None => managed::record_update(None, &mut object, &context.manager(false), context.shape(), &objects::now()),
    }
    object["apiVersion"] = json!(rt.api_version(rt.storage_version()));
    if context.request.query.dry_run() {
        return Ok(object);
    }
    let stored = state.store.commit(ChangeKind::Added, key, object);
    after_commit(state, context, &stored);
    Ok(stored)
}

fn stale_check(context: &Context<'_>, current: &Value, proposed: &Value, name: &str) -> ApiResult<()> {
    match (meta_str(proposed, "resourceVersion"), meta_str(current, "resourceVersion")) {
        (Some(wanted), Some(actual)) if wanted != actual => Err(ApiError::stale(context.subject(name))),
        _ => Ok(()),
    }
}

fn update(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let mut object = body_json(context.request)?;
    check_type_and_namespace(context, &mut object)?;
    let current = state.store.get(&context.key(name)).cloned().ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    if meta_str(&object, "name") != Some(name) {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({name})",
            meta_str(&object, "name").unwrap_or_default()
        )));
    }
    if context.resource_type.custom && meta_str(&object, "resourceVersion").is_none() {
        let error = FieldError::new("metadata.resourceVersion", FieldErrorKind::Invalid, Some("0x0".into()), "must be specified for an update");
        return Err(context.invalid(name, &[error]));
    }
    stale_check(context, &current, &object, name)?;
    let stored = write_update(state, context, &current, object, false)?;
    Ok(Reply::Json(200, context.served(stored)))
}

fn patch(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let kind = PatchKind::from_content_type(&context.request.content_type)?;
    let body = body_json(context.request)?;
    let current = state.store.get(&context.key(name)).cloned();
    if kind == PatchKind::Apply {
        return apply_patch(state, context, name, current, body);
    }
    let current = current.ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    let served = context.served(current.clone());
    let patched = match kind {
        PatchKind::Json => patch::json_patch(&served, &body)?,
        PatchKind::Merge => patch::merge_patch(&served, &body),
        PatchKind::Strategic if context.resource_type.custom => {
            return Err(ApiError::unsupported_media_type("strategic merge patch format is not supported"));
        }
        PatchKind::Strategic | PatchKind::Apply => {
            strategic::patch(&served, &body, context.shape()).map_err(|e| ApiError::unprocessable(format!("strategic merge patch failed: {e}")))?
        }
    };
    stale_check(context, &current, &patched, name)?;
    let stored = write_update(state, context, &current, patched, false)?;
    Ok(Reply::Json(200, context.served(stored)))
}

fn apply_patch(state: &mut State, context: &Context<'_>, name: &str, current: Option<Value>, mut config: Value) -> ApiResult<Reply> {
    if context.request.query.get("fieldManager").is_none() {
        return Err(ApiError::unprocessable("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"));
    }
    check_type_and_namespace(context, &mut config)?;
    match meta_str(&config, "name") {
        Some(n) if n != name => {
            return Err(ApiError::bad_request(format!("the name of the object ({n}) does not match the name on the URL ({name})")));
        }
        _ => config["metadata"]["name"] = json!(name),
    }
    let manager = context.manager(true);
    let now = objects::now();
    let scope = if context.status_write() {
        apply::Scope::Status
    } else {
        apply::Scope::Main { status_subresource: context.resource_type.status_subresource }
    };
    let request = apply::Apply { manager: &manager, force: context.request.query.flag("force"), scope, shape: context.shape(), now: &now };
    match current {
        None if context.status_write() => Err(ApiError::not_found(context.subject(name))),
        None => {
            let mut created = apply::apply(None, &config, &request)?;
            created["apiVersion"] = config["apiVersion"].clone();
            created["kind"] = config["kind"].clone();
            created["metadata"]["name"] = json!(name);
            if let Some(ns) = context.namespace().filter(|_| context.resource_type.namespaced) {
                created["metadata"]["namespace"] = json!(ns);
            }
            let managed_fields = created["metadata"]["managedFields"].clone();
            let stored = create_object(state, context, created, Some(managed_fields))?;
            Ok(Reply::Json(201, context.served(stored)))
        }
        Some(current) => {
            stale_check(context, &current, &config, name)?;
            let merged = apply::apply(Some(&current), &config, &request)?;
            let stored = write_update(state, context, &current, merged, true)?;
            Ok(Reply::Json(200, context.served(stored)))
        }
    }
}

/// The shared update path of PUT and PATCH.
fn write_update(state: &mut State, context: &Context<'_>, old: &Value, mut new: Value, managed_done: bool) -> ApiResult<Value> {
    let name = meta_str(old, "name").unwrap_or_default().to_string();
    let rt = &context.resource_type;
    let managed_fields = new.pointer("/metadata/managedFields").cloned();
    objects::keep_immutable_metadata(old, &mut new);
    if managed_done {
        if let Some(managed_fields) = managed_fields {
            new["metadata"]["managedFields"] = managed_fields;
        }
    }
    new["apiVersion"] = old["apiVersion"].clone();
    new["kind"] = old["kind"].clone();
    let mut new = objects::separate_status(old, new, context.status_write(), rt.status_subresource);
    if let Some(error) = objects::check_finalizers(old, &new) {
        return Err(context.invalid(&name, &[error]));
    }
    admit(context, &mut new, Some(old), &name)?;
    if rt.has_generation && objects::spec_changed(old, &new, rt.status_subresource) {
        let generation = old.pointer("/metadata/generation").and_then(Value::as_i64).unwrap_or(0);
        new["metadata"]["generation"] = json!(generation + 1);
    }
    if !managed_done {
        managed::record_update(Some(old), &mut new, &context.manager(false), context.shape(), &objects::now());
    }
    if objects::noop_view(&new) == objects::noop_view(old) || context.request.query.dry_run() {
        return Ok(if context.request.query.dry_run() { new } else { old.clone() });
    }
    let key = context.key(&name);
    if objects::is_deleting(&new) && objects::finalizers(&new).is_empty() {
        let stored = state.store.commit(ChangeKind::Deleted, key, new);
        gc::collect(state);
        return Ok(stored);
    }
    let stored = state.store.commit(ChangeKind::Modified, key, new);
    after_commit(state, context, &stored);
    Ok(stored)
}

fn propagation(context: &Context<'_>, options: &Value) -> ApiResult<Propagation> {
    let policy = options.get("propagationPolicy").and_then(Value::as_str).or_else(|| context.request.query.get("propagationPolicy"));
    match policy {
        None | Some("Background") => Ok(Propagation::Background),
        Some("Foreground") => Ok(Propagation::Foreground),
        Some("Orphan") => Ok(Propagation::Orphan),
        Some(other) => Err(ApiError::bad_request(format!(
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: {other:?}: supported values: \"Foreground\", \"Background\", \"Orphan\""
        ))),
    }
}

fn delete(state: &mut State, context: &Context<'_>, name: &str) -> ApiResult<Reply> {
    let options = body_json(context.request)?;
    let key = context.key(name);
    let current = state.store.get(&key).cloned().ok_or_else(|| ApiError::not_found(context.subject(name)))?;
    for (field, label) in [("uid", "UID"), ("resourceVersion", "ResourceVersion")] {
        if let Some(wanted) = options.pointer(&format!("/preconditions/{field}")).and_then(Value::as_str) {
            let actual = meta_str(&current, field).unwrap_or_default();
            if wanted != actual {
                return Err(ApiError::conflict(
                    context.subject(name),
                    format!("Precondition failed: {label} in precondition: {wanted}, {label} in object meta: {actual}"),
                ));
            }
        }
    }
    let policy = propagation(context, &options)?;
    if context.request.query.dry_run() || options.get("dryRun").is_some_and(|d| d.as_array().is_some_and(|a| !a.is_empty())) {
        return Ok(Reply::Json(200, context.served(current)));
    }
    match gc::delete(state, &key, policy) {
        gc::Outcome::Pending(object) => Ok(Reply::Json(200, context.served(object))),
        gc::Outcome::Deleted(object) => Ok(Reply::Json(200, json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Success",
            "details": {"name": name, "group": context.resource_type.group, "kind": context.resource_type.plural, "uid": meta_str(&object, "uid")},
        }))),
    }
}

fn delete_collection(state: &mut State, context: &Context<'_>) -> ApiResult<Reply> {
    let options = body_json(context.request)?;
    let policy = propagation(context, &options)?;
    let filter = filter(context)?;
    let rt = &context.resource_type;
    let keys: Vec<ObjectKey> =
        state.store.range(&rt.group, &rt.plural, context.namespace()).filter(|(_, o)| filter.matches(o)).map(|(k, _)| k.clone()).collect();
    let mut items = Vec::new();
    for key in keys {
        if context.request.query.dry_run() {
            items.extend(state.store.get(&key).cloned().map(|o| context.served(o)));
            continue;
        }
        let (gc::Outcome::Pending(object) | gc::Outcome::Deleted(object)) = gc::delete(state, &key, policy);
        items.push(context.served(object));
    }
    Ok(Reply::Json(200, json!({
        "apiVersion": rt.api_version(&context.version),
        "kind": format!("{}List", rt.kind),
        "metadata": {"resourceVersion": state.store.revision().to_string()},
        "items": items,
    })))
}
