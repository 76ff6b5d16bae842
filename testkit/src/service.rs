//! The `tower::Service` that a `kube::Client` talks to: routes each HTTP request to discovery or
//! to the resource handlers, applies injected faults, counts requests, and streams watches as
//! newline-delimited JSON events like the real API server.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::Frame;
use serde_json::{Value, json};

use super::body::Body;
use super::discovery::Catalog;
use super::handlers::{self, Reply, Request, WatchReply};
use super::objects;
use super::openapi;
use super::request::{self, Query, Route, Verb};
use super::resources::ResourceType;
use super::state::Shared;
use super::status::ApiError;
use super::store::WatchMessage;

/// The in-memory API server as a `tower::Service`, for [`kube::Client::new`] or any HTTP stack.
#[derive(Clone)]
pub struct ApiService {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for ApiService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiService")
    }
}

const AGGREGATED_DISCOVERY: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

fn json_response(code: u16, body: &Value) -> http::Response<Body> {
    json_response_typed(code, body, "application/json")
}

fn json_response_typed(code: u16, body: &Value, content_type: &str) -> http::Response<Body> {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    http::Response::builder()
        .status(code)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(Full::new(Bytes::from(bytes)).boxed_unsync())
        .unwrap_or_else(|_| http::Response::new(Full::new(Bytes::new()).boxed_unsync()))
}

fn reply_response(reply: Reply) -> http::Response<Body> {
    match reply {
        Reply::Json(code, body) => json_response(code, &body),
        Reply::Watch(watch) => watch_response(watch),
    }
}

fn error_response(error: &ApiError) -> http::Response<Body> {
    json_response(error.code, &error.to_status())
}

/// How a watch serves its objects.
struct WatchForm {
    api_version: String,
    kind: String,
    metadata_only: bool,
    /// As one-row Tables; the column definitions go with the first event only (kubectl keeps
    /// the header it printed first).
    table: Option<Box<(ResourceType, String)>>,
    first_event: bool,
    #[cfg(feature = "webhook")]
    webhooks: Option<std::sync::Arc<webop_core::webhook::Webhooks>>,
}

impl WatchForm {
    /// `object` at the watch's version: converted by its kind's conversion webhook if it has
    /// one, else relabelled; a failed conversion is the `Status` of an ERROR event.
    fn at_version(&self, mut object: Value) -> Result<Value, Value> {
        #[cfg(feature = "webhook")]
        if let Some(webhooks) = &self.webhooks {
            match webhooks.convert(&object, &self.api_version) {
                Some(Ok(converted)) => return Ok(converted),
                Some(Err(error)) => {
                    return Err(ApiError::conversion_failed(&object, error).to_status());
                }
                None => {}
            }
        }
        object["apiVersion"] = json!(self.api_version);
        object["kind"] = json!(self.kind);
        Ok(object)
    }

    /// `served` as a one-row Table when the watch asked for Tables, else unchanged.
    fn table_row(&mut self, served: Value) -> Value {
        let Some(table_of) = &self.table else {
            return served;
        };
        let (resource_type, version) = &**table_of;
        let mut table = crate::table::table(resource_type, version, &served, false);
        if !self.first_event {
            table["columnDefinitions"] = Value::Null;
        }
        self.first_event = false;
        table
    }
}

fn watch_line(message: WatchMessage, form: &mut WatchForm) -> Bytes {
    let (api_version, kind) = (form.api_version.as_str(), form.kind.as_str());
    let event = match message {
        WatchMessage::Event(change, object) => {
            let object = if form.metadata_only && form.table.is_none() {
                objects::partial_metadata(&object)
            } else {
                match form.at_version((*object).clone()) {
                    Ok(served) => form.table_row(served),
                    Err(status) => {
                        return watch_bytes(&json!({"type": "ERROR", "object": status}));
                    }
                }
            };
            json!({"type": change.as_str(), "object": object})
        }
        WatchMessage::Bookmark {
            revision,
            initial_end,
        } => {
            let mut metadata = json!({"resourceVersion": revision.to_string()});
            if initial_end {
                metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
            }
            json!({"type": "BOOKMARK", "object": {"apiVersion": api_version, "kind": kind, "metadata": metadata}})
        }
        WatchMessage::Error(status) => json!({"type": "ERROR", "object": status}),
    };
    watch_bytes(&event)
}

fn watch_bytes(event: &Value) -> Bytes {
    let mut line = serde_json::to_vec(event).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

fn watch_response(watch: WatchReply) -> http::Response<Body> {
    let deadline = watch.timeout.map(|t| tokio::time::Instant::now() + t);
    let form = WatchForm {
        api_version: watch.api_version,
        kind: watch.kind,
        metadata_only: watch.metadata_only,
        table: watch.table,
        first_event: true,
        #[cfg(feature = "webhook")]
        webhooks: watch.webhooks,
    };
    let stream = futures::stream::unfold(
        (watch.receiver, form),
        move |(mut receiver, mut form)| async move {
            let next = match deadline {
                Some(deadline) => tokio::time::timeout_at(deadline, receiver.recv())
                    .await
                    .ok()
                    .flatten(),
                None => receiver.recv().await,
            };
            let line = watch_line(next?, &mut form);
            Some((Ok::<_, Infallible>(Frame::data(line)), (receiver, form)))
        },
    );
    http::Response::builder()
        .status(200)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::TRANSFER_ENCODING, "chunked")
        .body(BodyExt::boxed_unsync(StreamBody::new(stream)))
        .unwrap_or_else(|_| http::Response::new(Full::new(Bytes::new()).boxed_unsync()))
}

impl ApiService {
    /// Answers one request.
    pub async fn respond(&self, parts: http::request::Parts, body: Bytes) -> http::Response<Body> {
        match self.route(parts, body).await {
            Ok(response) => response,
            Err(error) => error_response(&error),
        }
    }

    async fn route(
        &self,
        parts: http::request::Parts,
        body: Bytes,
    ) -> Result<http::Response<Body>, ApiError> {
        let path = parts.uri.path().to_string();
        let query = Query::parse(parts.uri.query());
        let target = match request::route(&path)? {
            Route::Resource(target) => target,
            Route::OpenApi(document) => {
                if parts.method != http::Method::GET {
                    return Err(ApiError::method_not_allowed(format!(
                        "the server does not allow this method on the requested resource ({})",
                        parts.method
                    )));
                }
                self.shared.counters.record(Verb::Get, &path);
                // Built outside the lock: documents are large and the types are cheap to copy.
                let types = self.shared.lock().catalog.types().to_vec();
                return Ok(openapi::respond(&document, &types, &parts));
            }
            discovery => {
                self.shared.counters.record(Verb::Get, &path);
                let state = self.shared.lock();
                let accept = parts
                    .headers
                    .get(http::header::ACCEPT)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default();
                let aggregated = matches!(discovery, Route::CoreVersions | Route::Groups)
                    && accept.contains("as=APIGroupDiscoveryList");
                if aggregated {
                    let document = state.catalog.aggregated(discovery == Route::CoreVersions);
                    return Ok(json_response_typed(200, &document, AGGREGATED_DISCOVERY));
                }
                let document = match discovery {
                    Route::Version => Some(Catalog::version()),
                    Route::CoreVersions => Some(Catalog::core_versions()),
                    Route::Groups => Some(state.catalog.group_list()),
                    Route::Group(group) => state.catalog.group(&group),
                    Route::ResourceList(group, version) => {
                        state.catalog.resource_list(&group, &version)
                    }
                    Route::Resource(_) | Route::OpenApi(_) => None,
                };
                return document
                    .map(|d| json_response(200, &d))
                    .ok_or_else(|| ApiError::no_route(&path));
            }
        };
        let verb = request::verb(&parts.method, &target, &query)?;
        let label = target.resource_label();
        self.shared.counters.record(verb, &label);
        let decision = self.shared.faults.decide(verb, &label, &target.group);
        if let Some(delay) = decision.delay {
            tokio::time::sleep(delay).await;
        }
        if let Some(code) = decision.fail {
            return Err(ApiError::injected(code));
        }
        let header = |name: http::header::HeaderName| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        let request = Request {
            target,
            verb,
            query,
            body,
            content_type: header(http::header::CONTENT_TYPE),
            user_agent: header(http::header::USER_AGENT),
            metadata_only: header(http::header::ACCEPT).contains("as=PartialObjectMetadata"),
            table: header(http::header::ACCEPT).contains("as=Table"),
            admission: None,
        };
        #[cfg(feature = "webhook")]
        if let Some(mut admitted) = super::admission::Admitted::of(&self.shared, &request) {
            let mut response = match admitted.run(request).await {
                Ok(reply) => reply_response(reply),
                Err(error) => error_response(&error),
            };
            for warning in &admitted.warnings {
                // The API server's `Warning: 299 - "<text>"`.
                if let Ok(value) = http::HeaderValue::from_str(&format!("299 - {warning:?}")) {
                    response.headers_mut().append(http::header::WARNING, value);
                }
            }
            return Ok(response);
        }
        let reply = handlers::handle(&mut self.shared.lock(), &request)?;
        Ok(reply_response(reply))
    }
}

impl<B> tower::Service<http::Request<B>> for ApiService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Display,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let bytes = match body.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(e) => {
                    return Ok(error_response(&ApiError::bad_request(format!(
                        "reading the request body failed: {e}"
                    ))));
                }
            };
            Ok(service.respond(parts, bytes).await)
        })
    }
}
