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

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use k8s_openapi::api::authentication::v1::TokenReview;
use k8s_openapi::api::authorization::v1::SubjectAccessReview;
use kube::api::PostParams;
use kube::{Api, Client};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::coalesced::Coalesced;
use super::digest_cache::{Digest, DigestCache, digest};
use super::token_bucket::TokenBucket;

const TOKEN_TTL: Duration = Duration::from_secs(60);
/// How long a token the API server did not authenticate is remembered (Kubernetes' token
/// cache: 10 s).
const UNAUTHENTICATED_TTL: Duration = Duration::from_secs(10);
const ALLOW_TTL: Duration = Duration::from_secs(300);
const DENY_TTL: Duration = Duration::from_secs(30);
/// How long one review may take (controller-runtime: 10 s for a TokenReview).
const REVIEW_TIMEOUT: Duration = Duration::from_secs(10);
/// The caches' sizes. Tokens that authenticate and those that do not are kept apart, so that
/// a flood of made-up tokens cannot push out the scrapers': those come from the API server,
/// one entry per real identity's token.
const AUTHENTICATED_BYTES: usize = 1024 * 1024;
const UNAUTHENTICATED_BYTES: usize = 256 * 1024;
const DECISION_BYTES: usize = 256 * 1024;
/// TokenReviews per second, and at once, for the tokens no cache knows (client-go's default
/// rate for a client of its own): callers without credentials cannot make the manager flood
/// the API server, nor delay its leader election, which shares the connection.
const REVIEWS_PER_SECOND: f64 = 5.0;
const REVIEW_BURST: u32 = 10;
/// Distinct unknown tokens being looked up at once (and as many renewals); more are turned
/// away (429) rather than queued, so that waiting callers hold no memory.
const PENDING_LOOKUPS: usize = 8;

/// The user a token belongs to, as the API server said (`username`, `uid`, `groups`, `extra`).
/// Reviews are written and read as JSON: their Rust types differ between the Kubernetes
/// versions k8s-openapi supports, and the operator's binary picks the version.
#[derive(Clone, Debug)]
struct User(Arc<Value>);

impl User {
    fn name(&self) -> &str {
        self.0["username"].as_str().unwrap_or_default()
    }
}

fn review<T: serde::de::DeserializeOwned>(review: Value) -> Result<T, kube::Error> {
    serde_json::from_value(review).map_err(kube::Error::SerdeError)
}

fn reviewed<T: serde::Serialize>(review: &T) -> Value {
    serde_json::to_value(review)
        .map(|mut value| value["status"].take())
        .unwrap_or_default()
}

/// What authenticating one token came to: the user, nobody, or why the API server could not
/// tell (shared by every caller waiting for the same token).
type Looked = Result<Option<User>, String>;

/// Why a request is refused before the API server is asked.
#[derive(Debug)]
struct Busy;

/// Authentication and authorization of metrics scrapes. Cheap to clone.
#[derive(Clone)]
pub struct MetricsAuth {
    inner: Arc<Inner>,
}

struct Inner {
    client: Client,
    /// Tokens the API server authenticated, kept past their [`TOKEN_TTL`] (for
    /// [`KNOWN_FOR`]) so that their next review goes ahead of strangers'.
    users: DigestCache<Known>,
    unauthenticated: DigestCache<()>,
    decisions: DigestCache<bool>,
    /// The tokens being looked up, and the questions being asked, each once however many
    /// callers wait for the answer.
    lookups: Coalesced<Looked>,
    questions: Coalesced<Result<bool, String>>,
    /// Authentication's own rate limits: one for tokens never authenticated, one for those
    /// that were (a flood of made-up tokens cannot delay a scraper's renewed review).
    strangers: Lookups,
    renewals: Lookups,
}

/// A token the API server authenticated, and when it last said so.
#[derive(Clone, Debug)]
struct Known {
    user: User,
    checked: Instant,
}

/// How long an authenticated token is remembered, so that its review after [`TOKEN_TTL`] is
/// a renewal.
const KNOWN_FOR: Duration = Duration::from_secs(600);

/// One class of lookups: their rate and how many are pending.
struct Lookups {
    bucket: Mutex<TokenBucket>,
    pending: Arc<AtomicUsize>,
}

impl Lookups {
    fn new() -> Self {
        Lookups {
            bucket: Mutex::new(TokenBucket::new(REVIEWS_PER_SECOND, REVIEW_BURST)),
            pending: Arc::default(),
        }
    }

    /// A pending lookup's place, if there is one free.
    fn enter(&self) -> Result<Pending, Busy> {
        let pending = self.pending.fetch_add(1, Ordering::SeqCst);
        let place = Pending(self.pending.clone());
        if pending >= PENDING_LOOKUPS {
            return Err(Busy);
        }
        Ok(place)
    }

    /// How long until this class may send its next review (booked now).
    fn wait(&self) -> Duration {
        let mut bucket = self.bucket.lock().unwrap_or_else(|e| e.into_inner());
        bucket.reserve(Instant::now())
    }
}

/// A place among the pending lookups of a class, freed when dropped.
struct Pending(Arc<AtomicUsize>);

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl MetricsAuth {
    /// Asks the API server behind `client`.
    pub fn new(client: Client) -> Self {
        MetricsAuth {
            inner: Arc::new(Inner {
                client,
                users: DigestCache::new(AUTHENTICATED_BYTES),
                unauthenticated: DigestCache::new(UNAUTHENTICATED_BYTES),
                decisions: DigestCache::new(DECISION_BYTES),
                lookups: Coalesced::default(),
                questions: Coalesced::default(),
                strangers: Lookups::new(),
                renewals: Lookups::new(),
            }),
        }
    }

    /// The user `token` authenticates, if any: from the caches, else from the one lookup of
    /// that token in flight, else from a new one.
    async fn authenticate(&self, token: &str) -> Result<Looked, Busy> {
        let key = digest(&[token.as_bytes()]);
        let known = self.inner.users.get(&key);
        if let Some(known) = &known
            && known.checked.elapsed() < TOKEN_TTL
        {
            return Ok(Ok(Some(known.user.clone())));
        }
        if self.inner.unauthenticated.get(&key).is_some() {
            return Ok(Ok(None));
        }
        let class = if known.is_some() {
            &self.inner.renewals
        } else {
            &self.inner.strangers
        };
        let lookup = || {
            let place = class.enter()?;
            let wait = class.wait();
            let (auth, token) = (self.clone(), token.to_owned());
            Ok(async move {
                tokio::time::sleep(wait).await;
                let reviewed = tokio::time::timeout(REVIEW_TIMEOUT, auth.review_token(token)).await;
                let looked = match reviewed {
                    Ok(Ok(user)) => Ok(user),
                    Ok(Err(error)) => Err(error.to_string()),
                    Err(_) => Err("the TokenReview timed out".to_owned()),
                };
                auth.remember(key, &looked);
                drop(place);
                looked
            })
        };
        self.inner.lookups.answer(key, lookup).await
    }

    /// Caches what the API server said about the token of `key`.
    fn remember(&self, key: Digest, looked: &Looked) {
        let inner = &self.inner;
        match looked {
            Ok(Some(user)) => {
                let bytes = user.0.to_string().len();
                let checked = Instant::now();
                let known = Known {
                    user: user.clone(),
                    checked,
                };
                inner.users.insert(key, known, bytes, KNOWN_FOR);
            }
            Ok(None) => {
                inner.users.remove(&key);
                inner
                    .unauthenticated
                    .insert(key, (), 0, UNAUTHENTICATED_TTL);
            }
            Err(_) => {}
        }
    }

    /// Asks the API server who `token` is.
    async fn review_token(&self, token: String) -> Result<Option<User>, kube::Error> {
        let asked: TokenReview = review(json!({"spec": {"token": token}}))?;
        drop(token);
        let answer = Api::<TokenReview>::all(self.inner.client.clone())
            .create(&PostParams::default(), &asked)
            .await?;
        let mut status = reviewed(&answer);
        let user = (status["authenticated"] == true).then(|| User(Arc::new(status["user"].take())));
        Ok(user)
    }

    /// Whether `user` may `verb` the non-resource URL `path`.
    async fn authorize(&self, user: &User, verb: &str, path: &str) -> Result<bool, String> {
        let who = user.0.to_string();
        let question = digest(&[who.as_bytes(), verb.as_bytes(), path.as_bytes()]);
        if let Some(known) = self.inner.decisions.get(&question) {
            return Ok(known);
        }
        let ask = || {
            let (auth, user) = (self.clone(), user.clone());
            let (verb, path) = (verb.to_owned(), path.to_owned());
            Ok::<_, Infallible>(async move {
                let asked = auth.review_access(&user, &verb, &path);
                let allowed = match tokio::time::timeout(REVIEW_TIMEOUT, asked).await {
                    Ok(Ok(allowed)) => allowed,
                    Ok(Err(error)) => return Err(error.to_string()),
                    Err(_) => return Err("the SubjectAccessReview timed out".to_owned()),
                };
                let ttl = if allowed { ALLOW_TTL } else { DENY_TTL };
                auth.inner.decisions.insert(question, allowed, 0, ttl);
                Ok(allowed)
            })
        };
        let Ok(answer) = self.inner.questions.answer(question, ask).await;
        answer
    }

    /// Asks the API server whether `user` may `verb` the non-resource URL `path`.
    async fn review_access(
        &self,
        user: &User,
        verb: &str,
        path: &str,
    ) -> Result<bool, kube::Error> {
        let asked: SubjectAccessReview = review(json!({"spec": {
            "user": user.0["username"],
            "uid": user.0["uid"],
            "groups": user.0["groups"],
            "extra": user.0["extra"],
            "nonResourceAttributes": {"path": path, "verb": verb},
        }}))?;
        let answer = Api::<SubjectAccessReview>::all(self.inner.client.clone())
            .create(&PostParams::default(), &asked)
            .await?;
        Ok(reviewed(&answer)["allowed"] == true)
    }
}

/// The token of an `Authorization: Bearer <token>` header; the scheme in any case, as RFC 9110
/// makes authentication schemes case-insensitive.
fn bearer_token(value: &HeaderValue) -> Option<&str> {
    let value = value.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

fn refuse(code: StatusCode, message: String) -> Response {
    (code, format!("{message}\n")).into_response()
}

/// The middleware: 401 without a valid token, 403 for a user not allowed, 500 when the API
/// server cannot be asked; otherwise the request goes on.
pub async fn require(State(auth): State<MetricsAuth>, request: Request, next: Next) -> Response {
    // The route serves GET (and HEAD): no identity is asked about any other verb.
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method Not Allowed".to_owned(),
        );
    }
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(bearer_token);
    let Some(token) = token else {
        return refuse(StatusCode::UNAUTHORIZED, "Unauthorized".to_owned());
    };
    let user = match auth.authenticate(token).await {
        Ok(Ok(Some(user))) => user,
        Ok(Ok(None)) => return refuse(StatusCode::UNAUTHORIZED, "Unauthorized".to_owned()),
        Ok(Err(error)) => {
            tracing::error!(%error, "metrics: authentication failed");
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Authentication failed".to_owned(),
            );
        }
        Err(Busy) => {
            let message = "Too many tokens being authenticated; try again".to_owned();
            return refuse(StatusCode::TOO_MANY_REQUESTS, message);
        }
    };
    let name = user.name().to_owned();
    let verb = request.method().as_str().to_lowercase();
    let path = request.uri().path().to_owned();
    match auth.authorize(&user, &verb, &path).await {
        Ok(true) => next.run(request).await,
        Ok(false) => {
            tracing::debug!(user = %name, %path, "metrics: authorization denied");
            refuse(
                StatusCode::FORBIDDEN,
                format!("Authorization denied for user {name}"),
            )
        }
        Err(error) => {
            tracing::error!(user = %name, %error, "metrics: authorization failed");
            let message = format!("Authorization for user {name} failed");
            refuse(StatusCode::INTERNAL_SERVER_ERROR, message)
        }
    }
}

#[cfg(test)]
mod tests;
