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
#[derive(Debug, PartialEq)]
pub enum Written {
    /// Stored; the Lease's metadata as the API server returned it (its new resourceVersion).
    Stored(Box<ObjectMeta>),
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

    /// The Lease's spec and metadata, if it exists.
    pub async fn get(&self) -> Result<Option<(LeaseSpec, ObjectMeta)>, kube::Error> {
        let Some(lease) = self.api.get_opt(&self.name).await? else {
            return Ok(None);
        };
        Ok(Some((lease.spec.unwrap_or_default(), lease.metadata)))
    }

    /// Creates the Lease with `spec`, unless it exists.
    pub async fn create(&self, spec: &LeaseSpec) -> Result<Written, kube::Error> {
        let metadata = ObjectMeta {
            name: Some(self.name.clone()),
            ..ObjectMeta::default()
        };
        let lease = Lease {
            metadata,
            spec: Some(spec.clone()),
        };
        let created = self.api.create(&PostParams::default(), &lease).await;
        Self::written(created)
    }

    /// Replaces the Lease's spec with `spec`, if it is still at the resourceVersion of `read`.
    /// Everything else of `read` is written back as it was (labels, annotations, owner
    /// references), as client-go updates the object it read.
    pub async fn update(
        &self,
        spec: &LeaseSpec,
        read: &ObjectMeta,
    ) -> Result<Written, kube::Error> {
        let lease = Lease {
            metadata: ObjectMeta {
                // The server keeps them; sending them back would only cost bytes.
                managed_fields: None,
                ..read.clone()
            },
            spec: Some(spec.clone()),
        };
        let replaced = self
            .api
            .replace(&self.name, &PostParams::default(), &lease)
            .await;
        Self::written(replaced)
    }

    fn written(result: Result<Lease, kube::Error>) -> Result<Written, kube::Error> {
        match result {
            Ok(lease) => Ok(Written::Stored(Box::new(lease.metadata))),
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
