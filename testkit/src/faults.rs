//! Fault injection (fail the next requests that match, delay responses, drop watches) and
//! request counters by verb and resource, for reliability tests and benchmarks.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::request::Verb;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Which requests a fault applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    verb: Option<Verb>,
    resource: Option<String>,
}

impl Matcher {
    /// Requests with this verb on this resource (`configmaps`, `webapps/status`), of any group,
    /// or of one group with kubectl's `resource.group` form (`deployments.apps`,
    /// `webapps.app.example.com/status`). `None` matches any verb or any resource.
    pub fn new(verb: impl Into<Option<Verb>>, resource: Option<&str>) -> Self {
        Self {
            verb: verb.into(),
            resource: resource.map(ToString::to_string),
        }
    }

    fn matches(&self, verb: Verb, resource: &str, group: &str) -> bool {
        self.verb.is_none_or(|v| v == verb)
            && self.resource.as_deref().is_none_or(|wanted| {
                let (plural, subresource) = match wanted.split_once('/') {
                    Some((plural, sub)) => (plural, Some(sub)),
                    None => (wanted, None),
                };
                let label = match plural.split_once('.') {
                    Some((plural, wanted_group)) if wanted_group == group => plural,
                    Some(_) => return false,
                    None => plural,
                };
                match subresource {
                    Some(sub) => resource == format!("{label}/{sub}"),
                    None => resource == label,
                }
            })
    }
}

#[derive(Debug, Clone)]
struct Failure {
    matcher: Matcher,
    remaining: usize,
    code: u16,
}

#[derive(Debug, Clone)]
struct Delay {
    matcher: Matcher,
    duration: Duration,
}

#[derive(Debug, Default)]
struct FaultState {
    failures: Vec<Failure>,
    delays: Vec<Delay>,
}

type WatchDropper = Box<dyn Fn() -> usize + Send + Sync>;

/// The fault injector of an [`ApiServer`](super::ApiServer). Cheap to clone; clones share state.
#[derive(Clone, Default)]
pub struct Faults {
    state: Arc<Mutex<FaultState>>,
    watches: Arc<Mutex<Option<WatchDropper>>>,
}

impl std::fmt::Debug for Faults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Faults")
            .field("state", &*lock(&self.state))
            .finish_non_exhaustive()
    }
}

/// What the injector decided for one request.
#[derive(Debug, Default)]
pub struct Decision {
    /// Fail with this status code.
    pub fail: Option<u16>,
    /// Wait this long first.
    pub delay: Option<Duration>,
}

impl Faults {
    pub(crate) fn on_drop_watches(&self, drop: impl Fn() -> usize + Send + Sync + 'static) {
        *lock(&self.watches) = Some(Box::new(drop));
    }

    /// Fails the next `times` requests with `verb` on `resource` (plural, or `plural/status`;
    /// `plural.group` for one group only, see [`Matcher::new`]) with HTTP status `code` (409,
    /// 429, 500, ...) and a matching `Status` body.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// use webop_testkit::{ApiServer, Verb};
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, PostParams};
    ///
    /// let server = ApiServer::new();
    /// server.faults().fail_next(Verb::Create, "configmaps", 1, 500);
    /// let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    /// let cm = ConfigMap { metadata: kube::api::ObjectMeta { name: Some("a".into()), ..Default::default() }, ..Default::default() };
    /// assert!(api.create(&PostParams::default(), &cm).await.is_err());
    /// assert!(api.create(&PostParams::default(), &cm).await.is_ok());
    /// # }
    /// ```
    pub fn fail_next(&self, verb: Verb, resource: &str, times: usize, code: u16) {
        self.fail_matching(Matcher::new(verb, Some(resource)), times, code);
    }

    /// Fails the next `times` requests that match with HTTP status `code`.
    pub fn fail_matching(&self, matcher: Matcher, times: usize, code: u16) {
        lock(&self.state).failures.push(Failure {
            matcher,
            remaining: times,
            code,
        });
    }

    /// Delays every matching response by `duration` until [`Faults::clear`].
    pub fn delay(&self, matcher: Matcher, duration: Duration) {
        lock(&self.state).delays.push(Delay { matcher, duration });
    }

    /// Ends every open watch now, as an API server restart would. Clients see their streams end
    /// and must re-watch from their last resourceVersion. Returns how many were dropped.
    pub fn drop_watches(&self) -> usize {
        lock(&self.watches).as_ref().map_or(0, |drop| drop())
    }

    /// Removes every pending failure and delay.
    pub fn clear(&self) {
        *lock(&self.state) = FaultState::default();
    }

    /// Decides the fate of one request, consuming a matching failure.
    pub(crate) fn decide(&self, verb: Verb, resource: &str, group: &str) -> Decision {
        let mut state = lock(&self.state);
        let mut decision = Decision::default();
        if let Some(failure) = state
            .failures
            .iter_mut()
            .find(|f| f.remaining > 0 && f.matcher.matches(verb, resource, group))
        {
            failure.remaining -= 1;
            decision.fail = Some(failure.code);
        }
        state.failures.retain(|f| f.remaining > 0);
        decision.delay = state
            .delays
            .iter()
            .filter(|d| d.matcher.matches(verb, resource, group))
            .map(|d| d.duration)
            .max();
        decision
    }
}

/// Request counters by verb and resource. Cheap to clone; clones share state.
#[derive(Debug, Clone, Default)]
pub struct Counters {
    counts: Arc<Mutex<BTreeMap<(Verb, String), u64>>>,
}

impl Counters {
    pub(crate) fn record(&self, verb: Verb, resource: &str) {
        let mut counts = lock(&self.counts);
        match counts.get_mut(&(verb, resource.to_string())) {
            Some(count) => *count += 1,
            None => {
                counts.insert((verb, resource.to_string()), 1);
            }
        }
    }

    /// Requests seen with `verb` on `resource` (plural, or `plural/status`).
    pub fn get(&self, verb: Verb, resource: &str) -> u64 {
        lock(&self.counts)
            .get(&(verb, resource.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// Requests seen with `verb` on any resource.
    pub fn verb(&self, verb: Verb) -> u64 {
        lock(&self.counts)
            .iter()
            .filter(|((v, _), _)| *v == verb)
            .map(|(_, c)| c)
            .sum()
    }

    /// All requests seen.
    pub fn total(&self) -> u64 {
        lock(&self.counts).values().sum()
    }

    /// Every counter, by verb and resource.
    pub fn snapshot(&self) -> BTreeMap<(Verb, String), u64> {
        lock(&self.counts).clone()
    }

    /// Sets every counter to zero.
    pub fn reset(&self) {
        lock(&self.counts).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resource_matches_in_any_group_unless_its_group_is_named() {
        let any = Matcher::new(Verb::Patch, Some("deployments/status"));
        assert!(any.matches(Verb::Patch, "deployments/status", "apps"));
        assert!(any.matches(Verb::Patch, "deployments/status", "web.example.com"));
        assert!(!any.matches(Verb::Patch, "deployments", "apps"));
        let ours = Matcher::new(Verb::Patch, Some("deployments.web.example.com/status"));
        assert!(ours.matches(Verb::Patch, "deployments/status", "web.example.com"));
        assert!(!ours.matches(Verb::Patch, "deployments/status", "apps"));
        let core = Matcher::new(None, Some("configmaps"));
        assert!(core.matches(Verb::Get, "configmaps", ""));
    }
}
