//! The operator under attack, in a process of its own so that the memory measured is its own:
//! a manager leading on a Lease of the in-memory API server, with a defaulting webhook for
//! ConfigMaps, probes, and `/metrics` behind authentication (TokenReviews and
//! SubjectAccessReviews answered by a stand-in: `reader-token` is a scraper allowed to read).
//! It prints its addresses, serves until its standard input closes, then prints what it saw.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use k8s_openapi::api::coordination::v1::Lease;
use serde_json::{Value, json};
use webop_manager::{Manager, Options};
use webop_testkit::ApiServer;

/// The environment variable that makes the child test the child, naming the certificate's
/// directory.
pub const CHILD: &str = "WEBOP_HOSTILE_LOAD_CERTS";
pub const READY: &str = "hostile-load ready";
pub const DONE: &str = "hostile-load done";
pub const LEASE: &str = "hostile";

/// The testkit's API, with the review endpoints answered; counts the reviews of the scraper's
/// token.
fn reviewing_client(server: &ApiServer, reader_reviews: Arc<AtomicUsize>) -> kube::Client {
    let api = server.service();
    let service = tower::service_fn(move |request: http::Request<kube::client::Body>| {
        let mut api = api.clone();
        let reader_reviews = reader_reviews.clone();
        async move {
            let path = request.uri().path().to_owned();
            let tokens = path.ends_with("/tokenreviews");
            if !tokens && !path.ends_with("/subjectaccessreviews") {
                let response = tower::Service::call(&mut api, request).await?;
                return Ok::<_, Box<dyn std::error::Error + Send + Sync>>(response);
            }
            let body = request.into_body().collect().await?.to_bytes();
            let mut review: Value = serde_json::from_slice(&body)?;
            review["status"] = if tokens {
                if review["spec"]["token"] == "reader-token" {
                    reader_reviews.fetch_add(1, Ordering::SeqCst);
                    json!({"authenticated": true, "user": {"username": "reader"}})
                } else {
                    json!({"authenticated": false})
                }
            } else {
                json!({"allowed": review["spec"]["user"] == "reader"})
            };
            let body = Full::new(serde_json::to_vec(&review)?.into()).boxed_unsync();
            let response = http::Response::builder().status(201).body(body)?;
            Ok(response)
        }
    });
    kube::Client::new(service, "default")
}

/// The largest gap between two renewals of the Lease seen so far, and how many were seen: the
/// Lease is read every 100 ms (a starved runtime would show here too, as a longer gap).
#[derive(Default)]
struct Renewals {
    seen: usize,
    longest_gap: Duration,
}

async fn watch_lease(client: kube::Client, renewals: Arc<std::sync::Mutex<Renewals>>) {
    let leases = kube::Api::<Lease>::namespaced(client, "default");
    let mut last: Option<(String, Instant)> = None;
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let Ok(Some(lease)) = leases.get_opt(LEASE).await else {
            continue;
        };
        let renewed = serde_json::to_string(&lease.spec.and_then(|s| s.renew_time)).unwrap();
        if last.as_ref().is_some_and(|(seen, _)| *seen == renewed) {
            continue;
        }
        let mut renewals = renewals.lock().unwrap();
        if let Some((_, at)) = &last {
            renewals.longest_gap = renewals.longest_gap.max(at.elapsed());
        }
        renewals.seen += 1;
        last = Some((renewed, Instant::now()));
    }
}

pub async fn serve(certificates: PathBuf) {
    let server = ApiServer::new();
    let reader_reviews = Arc::new(AtomicUsize::new(0));
    let client = reviewing_client(&server, reader_reviews.clone());
    let options = Options {
        metrics_bind_address: "127.0.0.1:0".to_owned(),
        metrics_cert_path: Some(certificates.clone()),
        webhook_cert_path: Some(certificates),
        health_probe_bind_address: "127.0.0.1:0".to_owned(),
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        ..Options::default()
    };
    let webhooks = super::client::webhooks();
    let manager = Manager::with_client(client.clone(), options, LEASE).with_webhooks(webhooks);
    let running = tokio::spawn(
        manager
            .clone()
            .run(|manager| async move { manager.shutdown_signal().await }),
    );
    let renewals = Arc::new(std::sync::Mutex::new(Renewals::default()));
    tokio::spawn(watch_lease(client, renewals.clone()));
    let addresses = loop {
        let bound = (
            manager.webhook_address(),
            manager.probe_address(),
            manager.metrics_address(),
        );
        if let (Some(webhook), Some(probes), Some(metrics)) = bound
            && renewals.lock().unwrap().seen > 0
        {
            break (webhook.port(), probes.port(), metrics.port());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    println!(
        "{READY} {} {} {} {}",
        addresses.0,
        addresses.1,
        addresses.2,
        std::process::id()
    );
    tokio::task::spawn_blocking(|| std::io::read_to_string(std::io::stdin()))
        .await
        .unwrap()
        .unwrap();
    manager.shutdown();
    let outcome = running.await.unwrap();
    let renewals = renewals.lock().unwrap();
    println!(
        "{DONE} {} {} {} {:?}",
        renewals.seen,
        renewals.longest_gap.as_millis(),
        reader_reviews.load(Ordering::SeqCst),
        outcome.map_err(|e| e.to_string()),
    );
}
