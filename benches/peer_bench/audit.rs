//! The requests of one operator, as the API server's audit log recorded them: each operator
//! runs as a user of its own (`peer-webop`, `peer-go`), so its requests are told apart from the
//! driver's and the control plane's. Windows are cut by the time the server received each
//! request, not by file offsets: a watch is logged when it ends, with the time it started.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;

use jiff::Timestamp;
use serde::Deserialize;

const WRITES: [&str; 5] = ["create", "update", "patch", "delete", "deletecollection"];

/// One finished request of the operator.
pub struct Request {
    pub verb: String,
    pub received: Timestamp,
}

impl Request {
    pub fn is_write(&self) -> bool {
        WRITES.contains(&self.verb.as_str())
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    verb: String,
    stage: String,
    user: User,
    object_ref: Option<serde::de::IgnoredAny>,
    request_received_timestamp: String,
}

#[derive(Deserialize)]
struct User {
    username: String,
}

/// Every request of `user` on a resource (discovery and `/version` left out, as in
/// webop-envtest's counts), from `log` (envtest does not let kube-apiserver rotate it).
pub fn requests(log: &Path, user: &str) -> std::io::Result<Vec<Request>> {
    let mut requests = Vec::new();
    read(log, user, &mut requests)?;
    Ok(requests)
}

fn read(log: &Path, user: &str, requests: &mut Vec<Request>) -> std::io::Result<()> {
    // A cheap substring test first: the log also holds every request of the control plane's
    // components and of the driver, most of its lines.
    let needle = format!("\"username\":\"{user}\"");
    for line in BufReader::new(std::fs::File::open(log)?).lines() {
        let line = line?;
        if !line.contains(&needle) {
            continue;
        }
        let Ok(event) = serde_json::from_str::<Event>(&line) else {
            continue;
        };
        if event.stage == "ResponseComplete"
            && event.user.username == user
            && event.object_ref.is_some()
            && let Ok(received) = event.request_received_timestamp.parse()
        {
            requests.push(Request {
                verb: event.verb,
                received,
            });
        }
    }
    Ok(())
}

/// The requests received in `[from, to)`.
pub fn between(requests: &[Request], from: Timestamp, to: Timestamp) -> Vec<&Request> {
    requests
        .iter()
        .filter(|r| r.received >= from && r.received < to)
        .collect()
}

/// `create=2000 list=3 patch=4100 watch=9`, in verb order.
pub fn by_verb<'a>(requests: impl IntoIterator<Item = &'a Request>) -> String {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for request in requests {
        *counts.entry(request.verb.as_str()).or_default() += 1;
    }
    let parts: Vec<String> = counts.iter().map(|(v, n)| format!("{v}={n}")).collect();
    parts.join(" ")
}
