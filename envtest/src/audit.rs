//! Request counts from the real API server's audit log: what the API server itself saw, not
//! what a client thinks it sent. Only the test's users are counted; the control plane's own
//! components (`system:*` users: controller-manager, scheduler, kwok, the API server's loopback
//! client) are left out, as the in-memory testkit has no such components.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Deserialize;

use super::Error;
use webop_testkit::Verb;

/// The audit policy: one event per finished request, with its metadata only. (Watches are
/// logged when they end.)
pub const POLICY: &str = r#"apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
- level: Metadata
"#;

/// Counts of API requests by verb and resource (`webapps`, `webapps/status`), as the testkit's
/// [`Counters`](webop_testkit::Counters) keep them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestCounts {
    counts: BTreeMap<(Verb, String), u64>,
}

impl RequestCounts {
    /// Counts as a map.
    pub fn from_map(counts: BTreeMap<(Verb, String), u64>) -> Self {
        Self { counts }
    }

    /// Requests with `verb` on `resource` (`webapps/status` for a subresource).
    pub fn get(&self, verb: Verb, resource: &str) -> u64 {
        self.counts
            .get(&(verb, resource.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// Requests with `verb`, on any resource.
    pub fn verb(&self, verb: Verb) -> u64 {
        self.counts
            .iter()
            .filter(|((v, _), _)| *v == verb)
            .map(|(_, n)| n)
            .sum()
    }

    /// Writes: create, update, patch, delete and deletecollection.
    pub fn writes(&self) -> u64 {
        [
            Verb::Create,
            Verb::Update,
            Verb::Patch,
            Verb::Delete,
            Verb::DeleteCollection,
        ]
        .into_iter()
        .map(|verb| self.verb(verb))
        .sum()
    }

    /// Every count.
    pub fn as_map(&self) -> &BTreeMap<(Verb, String), u64> {
        &self.counts
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    verb: String,
    #[serde(default)]
    user: User,
    object_ref: Option<ObjectRef>,
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
}

fn verb(name: &str) -> Option<Verb> {
    Some(match name {
        "get" => Verb::Get,
        "list" => Verb::List,
        "watch" => Verb::Watch,
        "create" => Verb::Create,
        "update" => Verb::Update,
        "patch" => Verb::Patch,
        "delete" => Verb::Delete,
        "deletecollection" => Verb::DeleteCollection,
        _ => return None,
    })
}

/// Counts the requests of non-system users in the JSON-lines audit `text`.
pub fn count(text: &str) -> RequestCounts {
    let mut counts = BTreeMap::new();
    for event in text
        .lines()
        .filter_map(|line| serde_json::from_str::<Event>(line).ok())
    {
        if event.user.username.starts_with("system:") {
            continue;
        }
        let (Some(verb), Some(object)) = (verb(&event.verb), event.object_ref) else {
            continue; // discovery, /version, /metrics: no resource
        };
        let Some(mut resource) = object.resource else {
            continue;
        };
        if let Some(subresource) = object.subresource {
            resource = format!("{resource}/{subresource}");
        }
        *counts.entry((verb, resource)).or_insert(0) += 1;
    }
    RequestCounts { counts }
}

/// The audit log from byte `offset` on.
pub fn read_from(path: &Path, offset: u64) -> Result<String, Error> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| Error::io(path, e))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| Error::io(path, e))?;
    Ok(text)
}

/// The audit log's length: where counting starts after a reset.
pub fn len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_of_test_users_by_verb_and_resource() {
        let log = [
            r#"{"verb":"patch","user":{"username":"webop-envtest-admin"},"objectRef":{"resource":"webapps","subresource":"status"}}"#,
            r#"{"verb":"patch","user":{"username":"webop-envtest-admin"},"objectRef":{"resource":"deployments"}}"#,
            r#"{"verb":"patch","user":{"username":"webop-envtest-admin"},"objectRef":{"resource":"deployments"}}"#,
            r#"{"verb":"update","user":{"username":"system:kube-controller-manager"},"objectRef":{"resource":"deployments","subresource":"status"}}"#,
            r#"{"verb":"get","user":{"username":"webop-envtest-admin"}}"#,
            r#"{"verb":"list","user":{"username":"webop-envtest-admin"},"objectRef":{"resource":"webapps"}}"#,
            "not json",
        ]
        .join("\n");
        let counts = count(&log);
        assert_eq!(counts.get(Verb::Patch, "webapps/status"), 1);
        assert_eq!(counts.get(Verb::Patch, "deployments"), 2);
        assert_eq!(counts.get(Verb::Update, "deployments/status"), 0);
        assert_eq!(counts.writes(), 3);
        assert_eq!(counts.verb(Verb::List), 1);
        assert_eq!(counts.verb(Verb::Get), 0);
    }
}
