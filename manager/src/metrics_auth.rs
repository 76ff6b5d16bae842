//! Who may read `/metrics`, decided by the API server as controller-runtime's
//! `WithAuthenticationAndAuthorization` filter asks it: the bearer token is authenticated with a
//! TokenReview, and the user it belongs to must be allowed to `get` the non-resource URL
//! `/metrics` (a SubjectAccessReview). The answers are cached as controller-runtime caches them
//! (tokens a minute; an allow five minutes, a deny thirty seconds), so a scrape every few
//! seconds costs the API server nothing.
//!
//! The manager's service account needs `create` on `tokenreviews` and `subjectaccessreviews`
//! (`config/rbac/metrics_auth_role.yaml`); a scraper needs `get` on `/metrics`
//! (`config/rbac/metrics_reader_role.yaml`).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::authentication::v1::TokenReview;
use k8s_openapi::api::authorization::v1::SubjectAccessReview;
use kube::api::PostParams;
use kube::{Api, Client};
use serde_json::{Value, json};
use tokio::time::Instant;

const TOKEN_TTL: Duration = Duration::from_secs(60);
const ALLOW_TTL: Duration = Duration::from_secs(300);
const DENY_TTL: Duration = Duration::from_secs(30);
/// How long one review may take (controller-runtime: 10 s for a TokenReview).
const REVIEW_TIMEOUT: Duration = Duration::from_secs(10);
/// Entries per cache: enough for every scraper, and a bound on what unknown tokens can fill.
const CACHE_ENTRIES: usize = 1024;

/// A small cache whose entries expire.
#[derive(Debug)]
struct Cache<K, V> {
    entries: Mutex<HashMap<K, (V, Instant)>>,
}

impl<K: Eq + Hash, V: Clone> Cache<K, V> {
    fn new() -> Self {
        Cache {
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, key: &K) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (value, expires) = entries.get(key)?;
        (*expires > Instant::now()).then(|| value.clone())
    }

    fn insert(&self, key: K, value: V, ttl: Duration) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CACHE_ENTRIES {
            entries.retain(|_, (_, expires)| *expires > now);
        }
        if entries.len() < CACHE_ENTRIES {
            entries.insert(key, (value, now + ttl));
        }
    }
}

/// The user a token belongs to, as the API server said (`username`, `uid`, `groups`, `extra`).
/// Reviews are written and read as JSON: their Rust types differ between the Kubernetes
/// versions k8s-openapi supports, and the operator's binary picks the version.
#[derive(Clone, Debug)]
struct User(Value);

impl User {
    fn name(&self) -> &str {
        self.0["username"].as_str().unwrap_or_default()
    }
}

/// What authorization is asked about: the user, the verb and the path.
type Question = (String, String, String);

fn review<T: serde::de::DeserializeOwned>(review: Value) -> Result<T, kube::Error> {
    serde_json::from_value(review).map_err(kube::Error::SerdeError)
}

fn reviewed<T: serde::Serialize>(review: &T) -> Value {
    serde_json::to_value(review)
        .map(|mut value| value["status"].take())
        .unwrap_or_default()
}

/// Authentication and authorization of metrics scrapes. Cheap to clone.
#[derive(Clone)]
pub struct MetricsAuth {
    client: Client,
    tokens: Arc<Cache<String, Option<User>>>,
    decisions: Arc<Cache<Question, bool>>,
}

impl MetricsAuth {
    /// Asks the API server behind `client`.
    pub fn new(client: Client) -> Self {
        MetricsAuth {
            client,
            tokens: Arc::new(Cache::new()),
            decisions: Arc::new(Cache::new()),
        }
    }

    /// The user `token` authenticates, if any.
    async fn authenticate(&self, token: &str) -> Result<Option<User>, kube::Error> {
        if let Some(known) = self.tokens.get(&token.to_owned()) {
            return Ok(known);
        }
        let asked: TokenReview = review(json!({"spec": {"token": token}}))?;
        let answer = Api::<TokenReview>::all(self.client.clone())
            .create(&PostParams::default(), &asked)
            .await?;
        let mut status = reviewed(&answer);
        let user = (status["authenticated"] == true).then(|| User(status["user"].take()));
        self.tokens
            .insert(token.to_owned(), user.clone(), TOKEN_TTL);
        Ok(user)
    }

    /// Whether `user` may `verb` the non-resource URL `path`.
    async fn authorize(&self, user: &User, verb: &str, path: &str) -> Result<bool, kube::Error> {
        let question: Question = (user.0.to_string(), verb.to_owned(), path.to_owned());
        if let Some(known) = self.decisions.get(&question) {
            return Ok(known);
        }
        let asked: SubjectAccessReview = review(json!({"spec": {
            "user": user.0["username"],
            "uid": user.0["uid"],
            "groups": user.0["groups"],
            "extra": user.0["extra"],
            "nonResourceAttributes": {"path": path, "verb": verb},
        }}))?;
        let answer = Api::<SubjectAccessReview>::all(self.client.clone())
            .create(&PostParams::default(), &asked)
            .await?;
        let allowed = reviewed(&answer)["allowed"] == true;
        let ttl = if allowed { ALLOW_TTL } else { DENY_TTL };
        self.decisions.insert(question, allowed, ttl);
        Ok(allowed)
    }
}

fn refuse(code: StatusCode, message: String) -> Response {
    (code, format!("{message}\n")).into_response()
}

/// The middleware: 401 without a valid token, 403 for a user not allowed, 500 when the API
/// server cannot be asked; otherwise the request goes on.
pub async fn require(State(auth): State<MetricsAuth>, request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty());
    let Some(token) = token else {
        return refuse(StatusCode::UNAUTHORIZED, "Unauthorized".to_owned());
    };
    let user = match tokio::time::timeout(REVIEW_TIMEOUT, auth.authenticate(token)).await {
        Ok(Ok(Some(user))) => user,
        Ok(Ok(None)) => return refuse(StatusCode::UNAUTHORIZED, "Unauthorized".to_owned()),
        Ok(Err(error)) => {
            tracing::error!(%error, "metrics: authentication failed");
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Authentication failed".to_owned(),
            );
        }
        Err(_) => {
            tracing::error!("metrics: the TokenReview timed out");
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Authentication failed".to_owned(),
            );
        }
    };
    let name = user.name().to_owned();
    let verb = request.method().as_str().to_lowercase();
    let path = request.uri().path().to_owned();
    match tokio::time::timeout(REVIEW_TIMEOUT, auth.authorize(&user, &verb, &path)).await {
        Ok(Ok(true)) => next.run(request).await,
        Ok(Ok(false)) => {
            tracing::debug!(user = %name, %path, "metrics: authorization denied");
            refuse(
                StatusCode::FORBIDDEN,
                format!("Authorization denied for user {name}"),
            )
        }
        Ok(Err(_)) | Err(_) => {
            tracing::error!(user = %name, "metrics: authorization failed");
            let message = format!("Authorization for user {name} failed");
            refuse(StatusCode::INTERNAL_SERVER_ERROR, message)
        }
    }
}
