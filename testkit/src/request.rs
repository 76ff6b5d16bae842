//! Turning an HTTP request into what the API server acts on: the route (discovery document or
//! resource target), the verb, and the query parameters Kubernetes clients send.

use std::collections::HashMap;

use super::status::{ApiError, ApiResult};

/// Which document a request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    /// `/openapi/v2`.
    V2,
    /// `/openapi/v3`: the list of group-version documents.
    V3Discovery,
    /// `/openapi/v3/<key>`, the key being `api/v1` or `apis/<group>/<version>`.
    V3(String),
}

/// Kubernetes request verbs, as RBAC and audit logs name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    /// Read one object.
    Get,
    /// Read a collection.
    List,
    /// Stream changes.
    Watch,
    /// `POST` a new object.
    Create,
    /// `PUT` a whole object.
    Update,
    /// `PATCH` (JSON, merge, strategic, apply).
    Patch,
    /// `DELETE` one object.
    Delete,
    /// `DELETE` a collection.
    DeleteCollection,
}

impl Verb {
    /// The lower-case name (`deletecollection`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::List => "list",
            Self::Watch => "watch",
            Self::Create => "create",
            Self::Update => "update",
            Self::Patch => "patch",
            Self::Delete => "delete",
            Self::DeleteCollection => "deletecollection",
        }
    }
}

impl std::fmt::Display for Verb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A resource (or subresource) addressed by a request path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// API group, empty for core.
    pub group: String,
    /// API version.
    pub version: String,
    /// Namespace from the path, if any.
    pub namespace: Option<String>,
    /// Resource plural.
    pub plural: String,
    /// Object name, if any.
    pub name: Option<String>,
    /// Subresource (`status`), if any.
    pub subresource: Option<String>,
}

impl Target {
    /// `configmaps` or `webapps/status`: how faults and counters name the resource.
    pub fn resource_label(&self) -> String {
        match &self.subresource {
            Some(sub) => format!("{}/{sub}", self.plural),
            None => self.plural.clone(),
        }
    }
}

/// What a path points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// `/version`.
    Version,
    /// `/api`.
    CoreVersions,
    /// `/apis`.
    Groups,
    /// `/apis/<group>`.
    Group(String),
    /// `/api/v1` or `/apis/<group>/<version>`.
    ResourceList(String, String),
    /// A resource, collection or subresource.
    Resource(Target),
    /// An OpenAPI document.
    OpenApi(Document),
}

/// Parses a request path.
pub fn route(path: &str) -> ApiResult<Route> {
    let parts: Vec<&str> = path
        .trim_matches('/')
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    let (group, version, rest) = match parts.as_slice() {
        ["version"] => return Ok(Route::Version),
        ["api"] => return Ok(Route::CoreVersions),
        ["apis"] => return Ok(Route::Groups),
        ["openapi", "v2"] => return Ok(Route::OpenApi(Document::V2)),
        ["openapi", "v3"] => return Ok(Route::OpenApi(Document::V3Discovery)),
        ["openapi", "v3", key @ ..] => return Ok(Route::OpenApi(Document::V3(key.join("/")))),
        ["apis", group] => return Ok(Route::Group((*group).to_string())),
        ["api", version] => return Ok(Route::ResourceList(String::new(), (*version).to_string())),
        ["apis", group, version] => {
            return Ok(Route::ResourceList(
                (*group).to_string(),
                (*version).to_string(),
            ));
        }
        ["api", version, rest @ ..] => ("", *version, rest),
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        _ => return Err(ApiError::no_route(path)),
    };
    let target = |namespace: Option<&str>, plural: &str, name: Option<&str>, sub: Option<&str>| {
        Route::Resource(Target {
            group: group.to_string(),
            version: version.to_string(),
            namespace: namespace.map(ToString::to_string),
            plural: plural.to_string(),
            name: name.map(ToString::to_string),
            subresource: sub.map(ToString::to_string),
        })
    };
    // `namespaces/<ns>/status` is the Namespace's own subresource, not a resource named `status`.
    Ok(match rest {
        ["namespaces", name, sub @ ("status" | "finalize")] if group.is_empty() => {
            target(None, "namespaces", Some(name), Some(sub))
        }
        ["namespaces", ns, plural] => target(Some(ns), plural, None, None),
        ["namespaces", ns, plural, name] => target(Some(ns), plural, Some(name), None),
        ["namespaces", ns, plural, name, sub] => target(Some(ns), plural, Some(name), Some(sub)),
        [plural] => target(None, plural, None, None),
        [plural, name] => target(None, plural, Some(name), None),
        [plural, name, sub] => target(None, plural, Some(name), Some(sub)),
        _ => return Err(ApiError::no_route(path)),
    })
}

/// The verb of a request on a resource target.
pub fn verb(method: &http::Method, target: &Target, query: &Query) -> ApiResult<Verb> {
    let named = target.name.is_some();
    Ok(match (method.as_str(), named) {
        ("GET", true) => Verb::Get,
        ("GET", false) if query.flag("watch") => Verb::Watch,
        ("GET", false) => Verb::List,
        ("POST", false) => Verb::Create,
        ("PUT", true) => Verb::Update,
        ("PATCH", true) => Verb::Patch,
        ("DELETE", true) => Verb::Delete,
        ("DELETE", false) => Verb::DeleteCollection,
        (method, _) => {
            return Err(ApiError::method_not_allowed(format!(
                "the server does not allow this method on the requested resource ({method})"
            )));
        }
    })
}

/// Query parameters of a request.
#[derive(Debug, Clone, Default)]
pub struct Query {
    params: HashMap<String, String>,
}

impl Query {
    /// Parses a URL query string.
    pub fn parse(query: Option<&str>) -> Self {
        let params = query
            .map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
            .unwrap_or_default();
        Self { params }
    }

    /// A parameter's value, empty strings counting as absent.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// A boolean parameter (`true`/`1`).
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.get(key), Some("true" | "1"))
    }

    /// A numeric parameter; a malformed number is a 400 naming it.
    pub fn number(&self, key: &str) -> ApiResult<Option<u64>> {
        self.get(key)
            .map(|v| v.parse::<u64>().map_err(|_| ApiError::bad_request(format!("invalid value {v:?} for query parameter {key}: must be a non-negative integer"))))
            .transpose()
    }

    /// `dryRun=All`.
    pub fn dry_run(&self) -> bool {
        self.get("dryRun").is_some()
    }
}
