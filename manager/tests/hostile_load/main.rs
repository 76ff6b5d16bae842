//! Issue 29's hostile load, on the testkit: the operator (a child process, so that its memory
//! is measured alone) is sent what anyone who reaches its webhook port can send, and must keep
//! leading, keep answering `/healthz`, and stay inside the scaffolded 256 MiB memory limit.
//!
//! 1. Two reviews of an object with 60,000 fields its type drops, at once.
//! 2. Reviews of 6.9 MB objects with 276,000 labels, 20 at once (in a debug build, where each
//!    takes about ten times longer, 8 reviews of a quarter of the labels).
//! 3. 2,000 distinct made-up bearer tokens of 300 KB at `/metrics`, with a scraper among them
//!    (in a debug build, whose TLS handshakes take ten times longer, 512).
//!
//! Throughout, `/healthz` is asked every 100 ms and the Lease is watched. The figures are
//! printed (`cargo test -p webop-manager --features webhook --release --test hostile_load --
//! --nocapture`); the test asserts what must hold in any build: every request answered as it
//! should be, the Lease never lost, `/healthz` always answering, the memory peak under the
//! limit.

mod child;
#[path = "../support/mod.rs"]
mod client;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The scaffolded `config/manager/manager.yaml`'s memory limit.
const MEMORY_LIMIT_MIB: f64 = 256.0;

fn unknown_fields(count: usize) -> Vec<u8> {
    let mut object = client::config_map();
    for i in 0..count {
        object[format!("unknown{i}")] = json!(i);
    }
    client::review(object)
}

fn labels(count: usize) -> Vec<u8> {
    let labels: serde_json::Map<String, Value> = (0..count)
        .map(|i| (format!("label-{i:06}"), json!(format!("v{i:06}"))))
        .collect();
    let mut object = client::config_map();
    object["metadata"]["labels"] = Value::Object(labels);
    client::review(object)
}

/// Asks `/healthz` every 100 ms until stopped: the slowest answer, and whether every one was ok.
fn probe(port: u16, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<(Duration, bool, usize)> {
    tokio::spawn(async move {
        let (mut slowest, mut all_ok, mut asked) = (Duration::ZERO, true, 0);
        while !stop.load(Ordering::SeqCst) {
            let (ok, took) = client::healthz(port).await;
            slowest = slowest.max(took);
            all_ok &= ok;
            asked += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        (slowest, all_ok, asked)
    })
}

/// The child's entry: serves only when the parent test starts it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the operator of `under_hostile_load`, run by it in a process of its own"]
async fn operator_process() {
    if let Ok(certificates) = std::env::var(child::CHILD) {
        child::serve(certificates.into()).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_hostile_load() {
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let certificates = tempfile::tempdir().unwrap();
    let tls = client::connector(&client::certificate(certificates.path()));
    let mut operator = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "operator_process", "--ignored", "--nocapture"])
        .env(child::CHILD, certificates.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(operator.stdout.take().unwrap()).lines();
    let ready = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix(child::READY).map(str::to_owned))
        .expect("the operator starts");
    let numbers: Vec<u32> = ready
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let [webhook, probes, metrics, pid] = numbers[..] else {
        panic!("{ready}")
    };
    let (webhook, probes, metrics) = (webhook as u16, probes as u16, metrics as u16);
    let (started_rss, _) = client::rss_mib(pid);
    println!("hostile load ({build} build): the operator starts at {started_rss:.1} MiB");
    let stop = Arc::new(AtomicBool::new(false));
    let prober = probe(probes, stop.clone());

    // 1. Fields the type drops: two reviews at once.
    let body = Arc::new(unknown_fields(60_000));
    let answers = futures::future::join_all((0..2).map(|_| {
        let (tls, body) = (tls.clone(), body.clone());
        tokio::spawn(async move { client::post(&tls, webhook, client::MUTATE, &body).await })
    }))
    .await;
    for answer in answers {
        let (code, review, took) = answer.unwrap();
        assert_eq!(code, 200, "{review}");
        assert!(review.contains("\"allowed\":true"), "{review}");
        println!(
            "  60,000 unknown fields ({:.1} MB): answered in {:.2} s",
            body.len() as f64 / 1e6,
            took.as_secs_f64()
        );
    }

    // 2. Label reviews just under the body limit, all at once.
    // A debug build parses about ten times slower: there, a quarter of the labels.
    let (concurrent, count) = if cfg!(debug_assertions) {
        (8, 69_000)
    } else {
        (20, 276_000)
    };
    let body = Arc::new(labels(count));
    let started = Instant::now();
    let answers = futures::future::join_all((0..concurrent).map(|_| {
        let (tls, body) = (tls.clone(), body.clone());
        tokio::spawn(async move { client::post(&tls, webhook, client::MUTATE, &body).await })
    }))
    .await;
    let mut slowest = Duration::ZERO;
    for answer in answers {
        let (code, review, took) = answer.unwrap();
        assert_eq!(code, 200, "{review}");
        slowest = slowest.max(took);
    }
    let (_, peak) = client::rss_mib(pid);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (after_labels, _) = client::rss_mib(pid);
    println!(
        "  {concurrent} reviews of {count} labels ({:.1} MB) at once: all answered in {:.1} s \
         (slowest {:.1} s); peak RSS {peak:.1} MiB, {after_labels:.1} MiB a second later",
        body.len() as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64()
    );

    // 3. Made-up tokens of 300 KB, 16 at a time, and a scraper after every 16.
    let rounds = if cfg!(debug_assertions) { 32 } else { 125 };
    let (before_tokens, _) = client::rss_mib(pid);
    let padding = Arc::new("x".repeat(300 * 1024));
    let (mut refused, mut busy) = (0, 0);
    for round in 0..rounds {
        let codes = futures::future::join_all((0..16).map(|i| {
            let (tls, padding) = (tls.clone(), padding.clone());
            tokio::spawn(async move {
                client::scrape(&tls, metrics, &format!("{padding}{round}-{i}")).await
            })
        }))
        .await;
        for code in codes {
            match code.unwrap() {
                401 => refused += 1,
                429 => busy += 1,
                other => panic!("a made-up token got {other}"),
            }
        }
        assert_eq!(client::scrape(&tls, metrics, "reader-token").await, 200);
    }
    let (after_tokens, peak) = client::rss_mib(pid);
    println!(
        "  {} made-up 300 KB tokens: {refused} refused (401), {busy} turned away (429); \
         RSS {before_tokens:.1} -> {after_tokens:.1} MiB",
        rounds * 16
    );

    stop.store(true, Ordering::SeqCst);
    let (slowest_probe, probes_ok, asked) = prober.await.unwrap();
    drop(operator.stdin.take());
    let done = lines
        .map_while(Result::ok)
        .find_map(|line| line.strip_prefix(child::DONE).map(str::to_owned))
        .expect("the operator reports");
    operator.wait().unwrap();
    let mut done = done.split_whitespace();
    let mut next = || done.next().unwrap().to_owned();
    let (renewals, longest_gap, reader_reviews) = (next(), next(), next());
    let outcome: String = done.collect::<Vec<_>>().join(" ");
    println!(
        "  /healthz: {asked} asked, slowest {:.0} ms; the Lease: {renewals} renewals seen, \
         longest gap {longest_gap} ms; the scraper's token reviewed {reader_reviews} times; \
         peak RSS {peak:.1} MiB of {MEMORY_LIMIT_MIB} MiB",
        slowest_probe.as_secs_f64() * 1e3
    );
    std::io::stdout().flush().unwrap();
    assert_eq!(
        outcome, "Ok(())",
        "the operator kept its Lease and stopped cleanly"
    );
    assert!(probes_ok, "every /healthz answered ok");
    assert!(peak < MEMORY_LIMIT_MIB, "peak RSS {peak:.1} MiB");
}
