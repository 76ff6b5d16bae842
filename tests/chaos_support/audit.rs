//! What the API server's audit log says the replicas did: who held the Lease when, and whether
//! any replica wrote while another held it.

use std::path::Path;

use jiff::Timestamp;
use serde::Deserialize;

/// One finished request of a replica.
#[derive(Debug, Clone)]
pub struct Request {
    pub user: String,
    pub verb: String,
    pub resource: String,
    pub name: String,
    pub code: u16,
    pub received: Timestamp,
    pub done: Timestamp,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    verb: String,
    #[serde(default)]
    user: User,
    object_ref: Option<ObjectRef>,
    response_status: Option<Status>,
    request_received_timestamp: String,
    stage_timestamp: String,
    stage: String,
}

#[derive(Deserialize, Default)]
struct User {
    #[serde(default)]
    username: String,
}

#[derive(Deserialize)]
struct ObjectRef {
    resource: Option<String>,
    subresource: Option<String>,
    name: Option<String>,
}

#[derive(Deserialize)]
struct Status {
    code: Option<u16>,
}

const WRITES: [&str; 5] = ["create", "update", "patch", "delete", "deletecollection"];

/// The finished requests of users whose name starts with `prefix`, in the order the server
/// received them.
pub fn requests(log: &Path, prefix: &str) -> Vec<Request> {
    let text = std::fs::read_to_string(log).unwrap();
    let mut requests: Vec<Request> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Event>(line).ok())
        .filter(|event| {
            event.stage == "ResponseComplete" && event.user.username.starts_with(prefix)
        })
        .filter_map(|event| {
            let object = event.object_ref?;
            let mut resource = object.resource?;
            if let Some(subresource) = object.subresource {
                resource = format!("{resource}/{subresource}");
            }
            Some(Request {
                user: event.user.username,
                verb: event.verb,
                resource,
                name: object.name.unwrap_or_default(),
                code: event.response_status.and_then(|s| s.code).unwrap_or(0),
                received: event.request_received_timestamp.parse().ok()?,
                done: event.stage_timestamp.parse().ok()?,
            })
        })
        .collect();
    requests.sort_by_key(|r| r.received);
    requests
}

impl Request {
    pub fn is_write(&self) -> bool {
        WRITES.contains(&self.verb.as_str())
    }

    fn succeeded(&self) -> bool {
        (200..300).contains(&self.code)
    }
}

/// The writes of a replica to anything but `lease` that the server received while another
/// replica held the Lease: the holder at a time is the writer of the last successful write of
/// the Lease finished by then. Empty when no two replicas ever wrote as leader at once.
pub fn writes_out_of_term<'a>(requests: &'a [Request], lease: &str) -> Vec<&'a Request> {
    let mut terms: Vec<(Timestamp, &str)> = requests
        .iter()
        .filter(|r| r.resource == "leases" && r.name == lease && r.is_write() && r.succeeded())
        .map(|r| (r.done, r.user.as_str()))
        .collect();
    terms.sort_by_key(|(done, _)| *done);
    requests
        .iter()
        .filter(|r| r.is_write() && r.resource != "leases")
        .filter(|write| {
            let holder = terms
                .iter()
                .take_while(|(done, _)| *done <= write.received)
                .last()
                .map(|(_, user)| *user);
            holder != Some(write.user.as_str())
        })
        .collect()
}

/// How many times the Lease changed hands.
pub fn handovers(requests: &[Request], lease: &str) -> usize {
    let holders: Vec<&str> = requests
        .iter()
        .filter(|r| r.resource == "leases" && r.name == lease && r.is_write() && r.succeeded())
        .map(|r| r.user.as_str())
        .collect();
    holders.windows(2).filter(|pair| pair[0] != pair[1]).count()
}
