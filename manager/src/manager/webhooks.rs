//! The manager's webhook server: the webhooks given to [`Manager::with_webhooks`], served over
//! HTTPS when [`Manager::serve`] starts the endpoints, with `/readyz` waiting for it.

use std::net::SocketAddr;

use super::{Manager, Servers};
use crate::{Error, Shutdown};

pub(super) struct ServedWebhooks {
    webhooks: webop_core::webhook::Webhooks,
    started: crate::Synced,
    /// Where the server listens and its self-signed `caBundle`, once serving.
    bound: Option<(SocketAddr, Option<String>)>,
}

impl Manager {
    /// Serves `webhooks` over HTTPS on `--webhook-port` (unless `ENABLE_WEBHOOKS=false`);
    /// `/readyz` waits until that server listens, as controller-runtime's `StartedChecker`
    /// does. A second call replaces the webhooks of the first.
    pub fn with_webhooks(self, webhooks: webop_core::webhook::Webhooks) -> Self {
        let started = self.inner.readiness.track("webhook-server");
        let served = ServedWebhooks {
            webhooks,
            started,
            bound: None,
        };
        let replaced = self.served_webhooks().replace(served);
        if let Some(replaced) = replaced {
            replaced.started.mark();
        }
        self
    }

    pub(super) fn served_webhooks(&self) -> std::sync::MutexGuard<'_, Option<ServedWebhooks>> {
        self.inner
            .webhooks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Where the webhook server listens, once serving.
    pub fn webhook_address(&self) -> Option<SocketAddr> {
        self.served_webhooks().as_ref()?.bound.as_ref().map(|b| b.0)
    }

    /// The webhook server's self-signed certificate, base64 as a `caBundle`, once serving
    /// without `--webhook-cert-path`.
    pub fn webhook_ca_bundle(&self) -> Option<String> {
        self.served_webhooks().as_ref()?.bound.as_ref()?.1.clone()
    }

    /// Starts the webhook server if there are webhooks and `ENABLE_WEBHOOKS` is not false;
    /// readiness waits for nothing more once it listens (or is off).
    pub(super) async fn serve_webhooks(
        &self,
        servers: &mut Servers,
        shutdown: &Shutdown,
    ) -> Result<(), Error> {
        let Some((webhooks, started)) = self
            .served_webhooks()
            .as_ref()
            .map(|s| (s.webhooks.clone(), s.started.clone()))
        else {
            return Ok(());
        };
        if !self.inner.options.enable_webhooks {
            tracing::info!("ENABLE_WEBHOOKS=false: the webhooks are not served");
            started.mark();
            return Ok(());
        }
        let metrics = self.inner.metrics.clone();
        let shutdown = shutdown.clone();
        let server =
            crate::webhook_server::spawn(webhooks, metrics, &self.inner.options, shutdown).await?;
        servers.webhook = Some(server.address);
        servers.tasks.push(server.task);
        if let Some(served) = self.served_webhooks().as_mut() {
            served.bound = Some((server.address, server.ca_bundle));
        }
        started.mark();
        Ok(())
    }

    /// The webhooks given to [`Manager::with_webhooks`] (empty without).
    pub fn webhooks(&self) -> webop_core::webhook::Webhooks {
        let served = self.served_webhooks();
        served
            .as_ref()
            .map(|s| s.webhooks.clone())
            .unwrap_or_default()
    }
}
