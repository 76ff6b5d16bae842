//! The leader-election lock: one `coordination.k8s.io/v1` Lease, read and written with optimistic
//! concurrency. Every write names the resourceVersion it read, so of two replicas that read the
//! same Lease and both try to take it, the API server lets exactly one write through and answers
//! the other 409 Conflict; of two that both find no Lease, one create wins and the other gets
//! 409 AlreadyExists. That, not the holder's identity, is what rules out two leaders.

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use kube::api::{ObjectMeta, PostParams};
use kube::{Api, Client};

/// What a write of the Lease came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    /// Stored; the Lease's new resourceVersion.
    Stored(String),
    /// Another writer got there first (409): the Lease changed since it was read, or was
    /// created by someone else.
    Lost,
}

/// One Lease, by namespace and name.
#[derive(Clone)]
pub struct LeaseLock {
    api: Api<Lease>,
    name: String,
    description: String,
}

impl std::fmt::Debug for LeaseLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.description)
    }
}

impl LeaseLock {
    /// The Lease `name` in `namespace`, through `client`.
    pub fn new(client: Client, namespace: &str, name: &str) -> Self {
        LeaseLock {
            api: Api::namespaced(client, namespace),
            name: name.to_owned(),
            description: format!("{namespace}/{name}"),
        }
    }

    /// `namespace/name`, for logs.
    pub fn describe(&self) -> &str {
        &self.description
    }

    /// The Lease's spec and resourceVersion, if it exists.
    pub async fn get(&self) -> Result<Option<(LeaseSpec, String)>, kube::Error> {
        let Some(lease) = self.api.get_opt(&self.name).await? else {
            return Ok(None);
        };
        let version = lease.metadata.resource_version.unwrap_or_default();
        Ok(Some((lease.spec.unwrap_or_default(), version)))
    }

    /// Creates the Lease with `spec`, unless it exists.
    pub async fn create(&self, spec: &LeaseSpec) -> Result<Written, kube::Error> {
        let lease = self.lease(spec, None);
        let created = self.api.create(&PostParams::default(), &lease).await;
        Self::written(created)
    }

    /// Replaces the Lease's spec with `spec`, if it is still at `resource_version`.
    pub async fn update(
        &self,
        spec: &LeaseSpec,
        resource_version: &str,
    ) -> Result<Written, kube::Error> {
        let lease = self.lease(spec, Some(resource_version.to_owned()));
        let replaced = self
            .api
            .replace(&self.name, &PostParams::default(), &lease)
            .await;
        Self::written(replaced)
    }

    fn lease(&self, spec: &LeaseSpec, resource_version: Option<String>) -> Lease {
        Lease {
            metadata: ObjectMeta {
                name: Some(self.name.clone()),
                resource_version,
                ..ObjectMeta::default()
            },
            spec: Some(spec.clone()),
        }
    }

    fn written(result: Result<Lease, kube::Error>) -> Result<Written, kube::Error> {
        match result {
            Ok(lease) => Ok(Written::Stored(
                lease.metadata.resource_version.unwrap_or_default(),
            )),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(Written::Lost),
            Err(error) => Err(error),
        }
    }
}

/// The wall-clock time of now, as Leases record it. Only people and other tools read these
/// times: replicas judge expiry by their own clocks (see `leader::Elector`).
pub fn now() -> MicroTime {
    MicroTime(k8s_openapi::jiff::Timestamp::now())
}
