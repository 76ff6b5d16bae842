//! The verbs on resources: get, list, watch, create, update, patch, delete, deletecollection,
//! each applying Kubernetes' object semantics and the custom resource schema engine.

mod crds;
mod delete;
mod patches;
mod read;
mod scale;
mod strict;
mod write;

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::gc::{self, Propagation};
use super::objects::{self, meta_str, partial_metadata};
use super::patch::{
    self, PatchKind, apply,
    managed::{self, Manager},
    strategic,
};
use super::request::{Query, Target, Verb};
use super::resources::{self, ResourceType};
use super::schema;
use super::selectors::{FieldSelector, Filter, LabelSelector};
use super::shape::Shape;
use super::state::State;
use super::status::{ApiError, ApiResult, FieldError, FieldErrorKind, Subject};
use super::store::{ChangeKind, ObjectKey, WatchMessage, WatchSpec};

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
    /// `Accept` asked for a `Table` (what `kubectl get` prints); honoured by get and list.
    pub table: bool,
    /// Where a create or update stops for the admission webhooks, and the object they made
    /// (see [`AdmissionStage`]); `None` for a request without webhooks.
    pub admission: Option<AdmissionStage>,
}

/// One stage of a write with admission webhooks. The service runs the write up to the
/// admission point (stopping before the schema, for the mutating webhooks), again with their
/// object and stopping after the schema (for the validating ones), and a last time to commit.
/// The handlers stay synchronous under the lock; the webhooks run between stages without it.
#[derive(Debug, Clone, Default)]
pub struct AdmissionStage {
    /// The object to write instead of the one the request yields.
    pub replace: Option<Value>,
    /// Stop at this point and leave the object in [`State::admission_stop`].
    pub stop: Option<StopAt>,
    /// The stored object's resourceVersion the first stage saw (`None`: there was none); a
    /// later stage that finds another gives [`ADMISSION_RETRY`], and the service starts over
    /// (the API server retries an update whose object changed under its admission).
    pub expected_old: Option<Option<String>>,
}

/// Where a staged write stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopAt {
    /// With the object the request yields, before the schema prunes, defaults and validates.
    BeforeSchema,
    /// With the object as the schema left it, before it is stored.
    AfterSchema,
}

/// The reason of the internal error that ends a stopped stage (never sent to a client).
pub const ADMISSION_STOP: &str = "webop:AdmissionStop";
/// The reason of the internal error that asks the service to start the stages over.
pub const ADMISSION_RETRY: &str = "webop:AdmissionRetry";

/// The admission point of a write: checks that the stored object is still the one the first
/// stage saw, puts in the webhooks' object, and stops if this stage stops here.
fn admission_point(
    state: &mut State,
    context: &Context<'_>,
    object: &mut Value,
    old: Option<&Value>,
    here: StopAt,
) -> ApiResult<()> {
    let Some(stage) = &context.request.admission else {
        return Ok(());
    };
    let old_version = old
        .and_then(|o| meta_str(o, "resourceVersion"))
        .map(str::to_owned);
    if let Some(expected) = &stage.expected_old
        && *expected != old_version
    {
        return Err(ApiError::internal_marker(ADMISSION_RETRY));
    }
    if here == StopAt::BeforeSchema
        && let Some(replacement) = &stage.replace
    {
        // The webhooks' object, with this stage's identity: a generated name, uid and
        // creation time are made again on each stage.
        let mut replaced = replacement.clone();
        for field in ["name", "uid", "creationTimestamp"] {
            if let Some(value) = object.pointer(&format!("/metadata/{field}"))
                && let Some(metadata) = replaced.get_mut("metadata").and_then(Value::as_object_mut)
            {
                metadata.insert(field.to_owned(), value.clone());
            }
        }
        *object = replaced;
    }
    if stage.stop == Some(here) {
        state.admission_stop = Some((object.clone(), old.cloned()));
        return Err(ApiError::internal_marker(ADMISSION_STOP));
    }
    Ok(())
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
    /// Serve objects as one-row Tables of this type's version (`kubectl get -w`).
    pub table: Option<Box<(ResourceType, String)>>,
    /// Converts the objects of a kind with a conversion webhook to `api_version`.
    #[cfg(feature = "webhook")]
    pub webhooks: Option<std::sync::Arc<webop_core::webhook::Webhooks>>,
}

struct Context<'a> {
    resource_type: ResourceType,
    version: String,
    request: &'a Request,
    /// The conversions of the kinds with a conversion webhook.
    #[cfg(feature = "webhook")]
    webhooks: Option<std::sync::Arc<webop_core::webhook::Webhooks>>,
}

impl Context<'_> {
    fn namespace(&self) -> Option<&str> {
        self.request.target.namespace.as_deref()
    }

    fn subject<'s>(&'s self, name: &'s str) -> Subject<'s> {
        Subject {
            group: &self.resource_type.group,
            resource: &self.resource_type.plural,
            name,
        }
    }

    fn key(&self, name: &str) -> ObjectKey {
        ObjectKey::of(&self.resource_type, self.namespace(), name)
    }

    fn shape(&self) -> Shape<'_> {
        Shape::root(self.resource_type.schema(&self.version))
    }

    fn status_write(&self) -> bool {
        self.request.target.subresource.as_deref() == Some("status")
    }

    fn served(&self, object: Value) -> ApiResult<Value> {
        let object = self.at_version(object, &self.version)?;
        Ok(
            if self.request.metadata_only && matches!(self.request.verb, Verb::Get | Verb::List) {
                partial_metadata(&object)
            } else {
                object
            },
        )
    }

    /// `object` at `version` of its type: converted by the kind's conversion webhook if it has
    /// one, else relabelled (a CRD's `None` conversion strategy).
    fn at_version(&self, object: Value, version: &str) -> ApiResult<Value> {
        #[cfg(feature = "webhook")]
        if let Some(webhooks) = &self.webhooks {
            let desired = self.resource_type.api_version(version);
            match webhooks.convert(&object, &desired) {
                Some(Ok(converted)) => return Ok(converted),
                Some(Err(error)) => return Err(ApiError::conversion_failed(&object, error)),
                None => {}
            }
        }
        Ok(self.resource_type.served(object, version))
    }

    /// `object` at the storage version, as it is stored.
    fn at_storage_version(&self, object: Value) -> ApiResult<Value> {
        let storage = self.resource_type.storage_version().to_owned();
        self.at_version(object, &storage)
    }

    fn manager(&self, apply: bool) -> Manager {
        let fallback = self
            .request
            .user_agent
            .split('/')
            .next()
            .unwrap_or_default();
        let name = self
            .request
            .query
            .get("fieldManager")
            .unwrap_or(if fallback.is_empty() {
                "unknown"
            } else {
                fallback
            });
        Manager {
            name: name.to_string(),
            apply,
            api_version: self.resource_type.api_version(&self.version),
            subresource: self.request.target.subresource.clone(),
        }
    }

    fn invalid(&self, name: &str, errors: &[FieldError]) -> ApiError {
        ApiError::invalid(
            &self.resource_type.group,
            &self.resource_type.kind,
            name,
            errors,
        )
    }
}

/// Handles a request on a resource.
pub fn handle(state: &mut State, request: &Request) -> ApiResult<Reply> {
    let target = &request.target;
    let resource_type = state
        .catalog
        .find(&target.group, &target.version, &target.plural)
        .cloned()
        .ok_or_else(|| {
            ApiError::no_route(&format!(
                "{}/{}/{}",
                target.group, target.version, target.plural
            ))
        })?;
    if target.namespace.is_some() && !resource_type.namespaced {
        return Err(ApiError::no_route(&target.plural));
    }
    match target.subresource.as_deref() {
        None => {}
        Some("status")
            if resource_type.status_subresource
                && matches!(request.verb, Verb::Get | Verb::Update | Verb::Patch) => {}
        Some("scale")
            if resource_type.scale.is_some()
                && matches!(request.verb, Verb::Get | Verb::Update | Verb::Patch) => {}
        Some(other) => return Err(ApiError::no_route(&format!("{}/{other}", target.plural))),
    }
    let context = Context {
        version: target.version.clone(),
        resource_type,
        request,
        #[cfg(feature = "webhook")]
        webhooks: state.webhooks.clone(),
    };
    let name = target.name.clone().unwrap_or_default();
    if let Some(paths) = context.resource_type.scale.clone()
        && target.subresource.as_deref() == Some("scale")
    {
        return scale::scale(state, &context, &name, &paths);
    }
    let reply = match request.verb {
        Verb::Get => read::get(state, &context, &name),
        Verb::List => read::list(state, &context),
        Verb::Watch => read::watch(state, &context),
        Verb::Create => write::create(state, &context),
        Verb::Update => write::update(state, &context, &name),
        Verb::Patch => patches::patch(state, &context, &name),
        Verb::Delete => delete::delete(state, &context, &name),
        Verb::DeleteCollection => delete::delete_collection(state, &context),
    }?;
    Ok(match reply {
        Reply::Json(200, body)
            if request.table && matches!(request.verb, Verb::Get | Verb::List) =>
        {
            let list = request.verb == Verb::List;
            let table = super::table::table(&context.resource_type, &context.version, &body, list);
            Reply::Json(200, table)
        }
        other => other,
    })
}

fn body_json(request: &Request) -> ApiResult<Value> {
    if request.body.is_empty() {
        return Ok(Value::Null);
    }
    if request.content_type.contains("protobuf") || request.content_type.contains("cbor") {
        return Err(ApiError::unsupported_media_type(format!(
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got {})",
            request.content_type
        )));
    }
    serde_json::from_slice(&request.body).map_err(|e| {
        ApiError::bad_request(format!(
            "the body of the request could not be decoded as JSON: {e}"
        ))
    })
}

fn filter(context: &Context<'_>) -> ApiResult<Filter> {
    let query = &context.request.query;
    Ok(Filter {
        labels: query
            .get("labelSelector")
            .map(LabelSelector::parse)
            .transpose()?
            .unwrap_or_default(),
        fields: query
            .get("fieldSelector")
            .map(|f| FieldSelector::parse(f, &context.resource_type))
            .transpose()?
            .unwrap_or_default(),
    })
}
