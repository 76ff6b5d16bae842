//! `/openapi/v2` and `/openapi/v3`: the schemas of every served kind, as kube-apiserver
//! publishes them, so that `kubectl explain`, `kubectl apply` (which asks the server to validate
//! when its operations take `fieldValidation`) and client-side apply's patch computation work
//! against the testkit.
//!
//! HTTP behaviour follows kube-openapi's handlers: content negotiation on `Accept` (406 for
//! what is not served), an `ETag` on every document with `304` for a matching `If-None-Match`,
//! and v3 group-version documents addressed by `?hash=<etag>`: the current hash is served
//! `immutable` for a year, a stale one is redirected (301) to the current.

mod builtin;
mod custom;
mod document;
mod meta;
mod paths;
mod protobuf;

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};

use super::body::Body;
use super::request::Document;
use super::resources::{self, ResourceType};

/// A built-in kind's schema with references resolved, for strict field validation; `None`
/// for custom kinds.
pub fn builtin_schema(group: &str, version: &str, kind: &str) -> Option<&'static Value> {
    builtin::builtins().resolved(group, version, kind)
}

const JSON: &str = "application/json";
const PROTOBUF_V2: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
/// The media type client-go asks for; answered as `PROTOBUF_V2`.
const PROTOBUF_V2_DEPRECATED: &str = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

/// A serialized document and its entity tag.
#[derive(Clone)]
struct Rendered {
    json: Bytes,
    etag: String,
}

/// A hash of the document, in hex: the ETag and the v3 `hash` parameter. (kube-apiserver uses
/// SHA-512; clients only compare it.)
fn render(document: &Value) -> Rendered {
    let json = serde_json::to_vec(document).unwrap_or_default();
    let halves = [0u8, 1].map(|seed| {
        let mut hasher = std::hash::DefaultHasher::new();
        seed.hash(&mut hasher);
        json.hash(&mut hasher);
        hasher.finish()
    });
    Rendered {
        etag: format!("{:016X}{:016X}", halves[0], halves[1]),
        json: json.into(),
    }
}

/// The v3 documents of the built-in group-versions, which never change.
fn builtin_v3() -> &'static BTreeMap<String, Rendered> {
    static DOCUMENTS: OnceLock<BTreeMap<String, Rendered>> = OnceLock::new();
    DOCUMENTS.get_or_init(|| {
        let types = resources::builtins();
        document::group_versions(&types)
            .into_iter()
            .filter_map(|(key, group, version)| {
                Some((key, render(&document::v3(&types, &group, &version)?)))
            })
            .collect()
    })
}

/// The v3 document of a group-version, if served.
fn v3(types: &[ResourceType], key: &str) -> Option<Rendered> {
    let (_, group, version) = document::group_versions(types)
        .into_iter()
        .find(|(k, _, _)| k == key)?;
    let custom = types
        .iter()
        .any(|t| t.custom && t.group == group && t.versions.contains(&version));
    if custom {
        document::v3(types, &group, &version).map(|d| render(&d))
    } else {
        builtin_v3().get(key).cloned()
    }
}

/// Which of `offered` (in order of preference) the `Accept` header takes, if any: the first
/// offered type a clause names, clauses taken by decreasing quality.
fn negotiate<'a>(accept: &str, offered: &[&'a str]) -> Option<&'a str> {
    let accept = if accept.trim().is_empty() {
        "*/*"
    } else {
        accept
    };
    let mut clauses: Vec<(f32, &str)> = accept
        .split(',')
        .map(|clause| {
            let mut parts = clause.split(';').map(str::trim);
            let media = parts.next().unwrap_or_default();
            let quality = parts
                .find_map(|p| p.strip_prefix("q="))
                .and_then(|q| q.parse().ok())
                .unwrap_or(1.0);
            (quality, media)
        })
        .filter(|(quality, _)| *quality > 0.0)
        .collect();
    clauses.sort_by(|a, b| b.0.total_cmp(&a.0));
    clauses.iter().find_map(|(_, media)| {
        let (kind, subtype) = media.split_once('/').unwrap_or((media, ""));
        offered.iter().copied().find(|candidate| {
            let (c_kind, c_subtype) = candidate.split_once('/').unwrap_or_default();
            (kind == "*" || kind == c_kind) && (subtype == "*" || subtype == c_subtype)
        })
    })
}

struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Bytes,
}

impl Reply {
    fn empty(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Bytes::new(),
        }
    }

    fn into_response(self) -> http::Response<Body> {
        let mut builder = http::Response::builder().status(self.status);
        for (name, value) in self.headers {
            builder = builder.header(name, value);
        }
        builder
            .body(Full::new(self.body).boxed_unsync())
            .unwrap_or_else(|_| http::Response::new(Full::new(Bytes::new()).boxed_unsync()))
    }
}

/// A document with its ETag, or 304 when the client holds it already.
fn entity(request: &http::HeaderMap, etag: &str, content_type: &str, body: Bytes) -> Reply {
    let quoted = format!("\"{etag}\"");
    let held = request
        .get(http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim() == quoted || t.trim() == "*")
        });
    let mut reply = if held {
        Reply::empty(304)
    } else {
        Reply {
            status: 200,
            headers: vec![("content-type", content_type.to_string())],
            body,
        }
    };
    reply.headers.push(("etag", quoted));
    reply.headers.push(("vary", "Accept".into()));
    reply
}

/// Answers a request for an OpenAPI document, given the served types.
pub fn respond(
    document: &Document,
    types: &[ResourceType],
    request: &http::request::Parts,
) -> http::Response<Body> {
    let headers = &request.headers;
    let accept = headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let reply = match document {
        Document::V2 => v2_reply(types, headers, accept),
        Document::V3Discovery => {
            let paths: serde_json::Map<String, Value> = document::group_versions(types)
                .into_iter()
                .filter_map(|(key, _, _)| {
                    let etag = v3(types, &key)?.etag;
                    let url = format!("/openapi/v3/{key}?hash={etag}");
                    Some((key, json!({"serverRelativeURL": url})))
                })
                .collect();
            let rendered = render(&json!({"paths": paths}));
            entity(headers, &rendered.etag, JSON, rendered.json)
        }
        Document::V3(key) => match v3(types, key) {
            None => Reply::empty(404),
            Some(rendered) => v3_reply(key, rendered, request, accept),
        },
    };
    reply.into_response()
}

fn v2_reply(types: &[ResourceType], headers: &http::HeaderMap, accept: &str) -> Reply {
    let offered = [JSON, PROTOBUF_V2, PROTOBUF_V2_DEPRECATED];
    let Some(form) = negotiate(accept, &offered) else {
        return Reply::empty(406);
    };
    let swagger = document::v2(types);
    let rendered = render(&swagger);
    if form == JSON {
        return entity(headers, &rendered.etag, JSON, rendered.json);
    }
    match protobuf::document(&swagger) {
        Ok(bytes) => entity(headers, &rendered.etag, PROTOBUF_V2, bytes.into()),
        Err(error) => Reply {
            status: 500,
            headers: vec![("content-type", "text/plain".into())],
            body: format!("encoding the OpenAPI v2 document as protobuf failed: {error}").into(),
        },
    }
}

fn v3_reply(key: &str, rendered: Rendered, request: &http::request::Parts, accept: &str) -> Reply {
    // The protobuf form of v3 documents is not served; kubectl reads them as JSON.
    if negotiate(accept, &[JSON]).is_none() {
        return Reply::empty(406);
    }
    let asked = request.uri.query().and_then(|q| {
        form_urlencoded::parse(q.as_bytes())
            .find(|(name, _)| name == "hash")
            .map(|(_, hash)| hash.into_owned())
    });
    if let Some(asked) = &asked
        && *asked != rendered.etag
    {
        let mut moved = Reply::empty(301);
        let location = format!("/openapi/v3/{key}?hash={}", rendered.etag);
        moved.headers.push(("location", location));
        return moved;
    }
    let mut reply = entity(&request.headers, &rendered.etag, JSON, rendered.json);
    if asked.is_some() {
        let expires = jiff::Timestamp::now()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .checked_add(jiff::Span::new().years(1))
            .map(|z| z.strftime("%a, %d %b %Y %H:%M:%S GMT").to_string())
            .unwrap_or_default();
        reply
            .headers
            .push(("cache-control", "public, immutable".into()));
        reply.headers.push(("expires", expires));
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_takes_the_best_clause_and_wildcards() {
        let offered = [JSON, PROTOBUF_V2, PROTOBUF_V2_DEPRECATED];
        assert_eq!(
            negotiate(PROTOBUF_V2_DEPRECATED, &offered),
            Some(PROTOBUF_V2_DEPRECATED)
        );
        assert_eq!(negotiate("application/json, */*", &offered), Some(JSON));
        assert_eq!(negotiate("", &offered), Some(JSON));
        assert_eq!(
            negotiate(
                "application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
                &offered
            ),
            Some(PROTOBUF_V2)
        );
        assert_eq!(negotiate("application/yaml", &offered), None);
        assert_eq!(
            negotiate(
                "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
                &[JSON]
            ),
            None
        );
    }

    #[test]
    fn every_builtin_document_renders_and_the_v2_document_encodes_as_protobuf() {
        let types = resources::builtins();
        let keys: Vec<&str> = builtin_v3().keys().map(String::as_str).collect();
        assert!(
            keys.contains(&"api/v1") && keys.contains(&"apis/apps/v1"),
            "{keys:?}"
        );
        let swagger = document::v2(&types);
        assert!(swagger["definitions"]["io.k8s.api.apps.v1.Deployment"].is_object());
        protobuf::document(&swagger).unwrap();
    }
}
