//! Metrics authentication against a stand-in for the API server's review endpoints:
//! `reader-token` is Prometheus', which may `get` `/metrics`; any other token is nobody's.

use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use http_body_util::{BodyExt, Full};
use tower::ServiceExt;

use super::*;
use crate::Metrics;
use crate::server::metrics_routes;

const READER: &str = "system:serviceaccount:monitoring:prometheus";

/// Counts the TokenReviews and SubjectAccessReviews it answers.
#[derive(Clone, Default)]
struct Reviews {
    tokens: Arc<AtomicUsize>,
    reader_tokens: Arc<AtomicUsize>,
    decisions: Arc<AtomicUsize>,
}

impl Reviews {
    fn client(&self) -> Client {
        let reviews = self.clone();
        let service = tower::service_fn(move |request: http::Request<kube::client::Body>| {
            let reviews = reviews.clone();
            async move {
                let tokens = request.uri().path().ends_with("/tokenreviews");
                let body = request.into_body().collect().await?.to_bytes();
                let mut review: Value = serde_json::from_slice(&body)?;
                review["status"] = if tokens {
                    reviews.tokens.fetch_add(1, Ordering::SeqCst);
                    // An answer that takes a while, as a real API server's may.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    match review["spec"]["token"].as_str() {
                        Some("reader-token") => {
                            reviews.reader_tokens.fetch_add(1, Ordering::SeqCst);
                            json!({"authenticated": true, "user": {"username": READER}})
                        }
                        _ => json!({"authenticated": false}),
                    }
                } else {
                    reviews.decisions.fetch_add(1, Ordering::SeqCst);
                    json!({"allowed": review["spec"]["user"] == READER})
                };
                let body = Full::new(serde_json::to_vec(&review)?.into()).boxed_unsync();
                let response = http::Response::builder().status(201).body(body)?;
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(response)
            }
        });
        Client::new(service, "default")
    }

    fn tokens(&self) -> usize {
        self.tokens.load(Ordering::SeqCst)
    }

    fn reader_tokens(&self) -> usize {
        self.reader_tokens.load(Ordering::SeqCst)
    }

    fn decisions(&self) -> usize {
        self.decisions.load(Ordering::SeqCst)
    }
}

/// The metrics routes behind `auth`.
fn routes(auth: &MetricsAuth) -> axum::Router {
    metrics_routes(Metrics::new(), Some(auth.clone()))
}

/// The status of `method path` with `authorization`, through `routes`.
async fn scrape(routes: &axum::Router, method: &str, path: &str, authorization: &str) -> u16 {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(header::AUTHORIZATION, authorization)
        .body(Body::empty())
        .unwrap();
    routes
        .clone()
        .oneshot(request)
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn the_bearer_scheme_is_read_in_any_case() {
    for header in ["Bearer t", "bearer t", "BEARER  t "] {
        let value = HeaderValue::from_str(header).unwrap();
        assert_eq!(bearer_token(&value), Some("t"), "{header:?}");
    }
    for header in ["Basic t", "Bearer", "Bearer  ", "Bearert"] {
        let value = HeaderValue::from_str(header).unwrap();
        assert_eq!(bearer_token(&value), None, "{header:?}");
    }
}

#[tokio::test]
async fn a_lowercase_bearer_scheme_is_authenticated() {
    let reviews = Reviews::default();
    let auth = MetricsAuth::new(reviews.client());
    let routes = routes(&auth);
    assert_eq!(
        scrape(&routes, "GET", "/metrics", "bearer reader-token").await,
        200
    );
}

#[tokio::test]
async fn concurrent_requests_with_one_token_share_one_review() {
    let reviews = Reviews::default();
    let auth = MetricsAuth::new(reviews.client());
    let routes = routes(&auth);
    let scrapes = (0..20).map(|_| scrape(&routes, "GET", "/metrics", "Bearer reader-token"));
    let codes = futures::future::join_all(scrapes).await;
    assert!(codes.iter().all(|code| *code == 200), "{codes:?}");
    assert_eq!(reviews.tokens(), 1);
    assert_eq!(reviews.decisions(), 1);
}

#[tokio::test]
async fn paths_and_verbs_not_served_cost_no_review() {
    let reviews = Reviews::default();
    let auth = MetricsAuth::new(reviews.client());
    let routes = routes(&auth);
    for path in (0..50).map(|i| format!("/metrics/{i}")) {
        assert_eq!(
            scrape(&routes, "GET", &path, "Bearer reader-token").await,
            404
        );
    }
    assert_eq!(
        scrape(&routes, "DELETE", "/metrics", "Bearer reader-token").await,
        405
    );
    assert_eq!(reviews.tokens() + reviews.decisions(), 0);
    assert_eq!(
        scrape(&routes, "GET", "/metrics", "Bearer reader-token").await,
        200
    );
    assert_eq!(
        scrape(&routes, "HEAD", "/metrics", "Bearer reader-token").await,
        200
    );
    assert_eq!(
        reviews.decisions(),
        2,
        "one per verb of the one path served"
    );
}

/// Issue 29's flood: thousands of distinct made-up tokens of 300 KB. None is held (the caches
/// hold digests), their answers stay within the caches' bytes, the TokenReviews they cause
/// are rate-limited, and the scraper stays cached: its token is reviewed again once a minute,
/// ahead of the flood (the clock is Tokio's paused one: the durations are exact).
#[tokio::test(start_paused = true)]
async fn a_flood_of_made_up_tokens_holds_no_token_and_keeps_the_scraper_cached() {
    let reviews = Reviews::default();
    let auth = MetricsAuth::new(reviews.client());
    let routes = routes(&auth);
    let reader = "Bearer reader-token";
    assert_eq!(scrape(&routes, "GET", "/metrics", reader).await, 200);
    let started = Instant::now();
    // 1 KiB, where the manager's test sends 300 KiB: what the caches hold does not depend on
    // it (digests), and hashing 600 MB is slow in a debug build.
    let padding = "x".repeat(1024);
    let (mut turned_away, mut slowest_scrape) = (0, Duration::ZERO);
    for round in 0..40 {
        let tokens: Vec<String> = (0..50)
            .map(|i| format!("Bearer {padding}{round}-{i}"))
            .collect();
        let flood = tokens
            .iter()
            .map(|token| scrape(&routes, "GET", "/metrics", token));
        let scraped = async {
            let asked = Instant::now();
            let code = scrape(&routes, "GET", "/metrics", reader).await;
            (code, asked.elapsed())
        };
        let (codes, (code, took)) = tokio::join!(futures::future::join_all(flood), scraped);
        assert!(codes.iter().all(|c| *c == 401 || *c == 429), "{codes:?}");
        turned_away += codes.iter().filter(|c| **c == 429).count();
        assert_eq!(code, 200, "round {round}");
        slowest_scrape = slowest_scrape.max(took);
    }
    let elapsed = started.elapsed();
    // A renewed review takes the stand-in's 50 ms, never a place behind the flood.
    assert!(
        slowest_scrape <= Duration::from_millis(50),
        "{slowest_scrape:?}"
    );
    let inner = &auth.inner;
    assert!(inner.unauthenticated.bytes() <= UNAUTHENTICATED_BYTES);
    assert_eq!(inner.users.len(), 1);
    assert_eq!(inner.lookups.running(), 0);
    // Every stranger's review waited for the rate: the burst, then REVIEWS_PER_SECOND.
    let allowed = f64::from(REVIEW_BURST) + elapsed.as_secs_f64() * REVIEWS_PER_SECOND;
    let strangers = reviews.tokens() - reviews.reader_tokens();
    assert!(
        strangers as f64 <= allowed,
        "{strangers} TokenReviews in {elapsed:?}"
    );
    assert!(
        turned_away > 0,
        "more than {PENDING_LOOKUPS} lookups at once are refused"
    );
    let minutes = elapsed.as_secs() / 60;
    assert!(
        reviews.reader_tokens() <= usize::try_from(minutes).unwrap() + 2,
        "the scraper's token: {} reviews in {elapsed:?}",
        reviews.reader_tokens()
    );
}
