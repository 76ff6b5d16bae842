//! Leader election on a `coordination.k8s.io/v1` Lease (kube-lease-manager): only the replica
//! holding the Lease runs controllers.

use kube::Client;
use kube_lease_manager::{LeaseManager, LeaseManagerBuilder};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::Error;

/// The namespace a Pod runs in, as its service account mounts it.
const POD_NAMESPACE_FILE: &str = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

/// A held (or awaited) Lease; dropping [`Leadership::release`]'s receiver frees it.
pub struct Leadership {
    leading: watch::Receiver<bool>,
    renewer: JoinHandle<kube_lease_manager::Result<LeaseManager>>,
    lease: String,
}

/// The Lease's namespace: the flag, else `POD_NAMESPACE`, else the Pod's service-account
/// namespace, else the client's default namespace.
pub fn lease_namespace(flag: Option<&str>, client: &Client) -> String {
    if let Some(namespace) = flag {
        return namespace.to_owned();
    }
    if let Ok(namespace) = std::env::var("POD_NAMESPACE") {
        return namespace;
    }
    match std::fs::read_to_string(POD_NAMESPACE_FILE) {
        Ok(namespace) if !namespace.trim().is_empty() => namespace.trim().to_owned(),
        _ => client.default_namespace().to_owned(),
    }
}

/// This replica's identity in the Lease: the Pod name (`HOSTNAME`) plus a random-enough suffix,
/// so a restarted Pod does not mistake its predecessor's Lease for its own.
pub fn identity() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "manager".to_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{host}_{:x}{nanos:x}", std::process::id())
}

impl Leadership {
    /// Starts competing for `lease` in `namespace`, held `duration` seconds per renewal, and
    /// renewing it once held.
    pub async fn compete(
        client: Client,
        lease: &str,
        namespace: &str,
        duration: u64,
    ) -> Result<Self, Error> {
        let manager = LeaseManagerBuilder::new(client, lease)
            .with_namespace(namespace)
            .with_identity(identity())
            .with_duration(duration)
            .with_grace((duration / 3).max(1))
            .build()
            .await
            .map_err(|e| Error::LeaderElection(e.to_string()))?;
        let (leading, renewer) = manager.watch().await;
        Ok(Leadership {
            leading,
            renewer,
            lease: format!("{namespace}/{lease}"),
        })
    }

    /// Resolves once this replica holds the Lease.
    pub async fn acquired(&mut self) -> Result<(), Error> {
        tracing::info!(lease = %self.lease, "waiting for the leader-election lease");
        self.leading
            .wait_for(|leading| *leading)
            .await
            .map_err(|_| Error::LeaderElection("the lease renewer stopped".to_owned()))?;
        tracing::info!(lease = %self.lease, "acquired the leader-election lease");
        Ok(())
    }

    /// Resolves if this replica loses the Lease.
    pub async fn lost(&mut self) {
        let _ = self.leading.wait_for(|leading| !*leading).await;
    }

    /// Gives the Lease up so another replica takes over at once, instead of after it expires.
    pub async fn release(self) {
        drop(self.leading);
        match self.renewer.await {
            Ok(Ok(_)) => tracing::info!(lease = %self.lease, "released the leader-election lease"),
            Ok(Err(error)) => tracing::warn!(%error, "could not release the leader-election lease"),
            Err(error) => tracing::warn!(%error, "the lease renewer panicked"),
        }
    }
}
