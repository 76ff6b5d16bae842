//! One test environment, on a real control plane or on the in-memory testkit.

use std::path::PathBuf;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

use super::audit::{self, RequestCounts};
use super::control_plane::{Components, ControlPlane};
use super::{Assets, Binary, Error, crds};
use webop_testkit::ApiServer;

/// Which API server an environment runs on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Backend {
    /// A real control plane when `KUBEBUILDER_ASSETS` is set, the testkit otherwise.
    #[default]
    FromEnv,
    /// Always the in-memory testkit.
    Testkit,
    /// Always a real control plane, from these binaries.
    Real(Assets),
}

/// How to start an [`Environment`].
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct EnvironmentBuilder {
    backend: Backend,
    crds: Vec<CustomResourceDefinition>,
    crd_dirs: Vec<PathBuf>,
    components: Components,
    #[cfg(feature = "webhook")]
    webhooks: Option<webop_core::webhook::Webhooks>,
    workloads: bool,
    paused_clock: bool,
}

impl EnvironmentBuilder {
    /// Chooses the API server (default: [`Backend::FromEnv`]).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// Installs `crd` (e.g. `WebApp::crd()`).
    pub fn crd(mut self, crd: CustomResourceDefinition) -> Self {
        self.crds.push(crd);
        self
    }

    /// Installs these CRDs.
    pub fn crds(mut self, crds: impl IntoIterator<Item = CustomResourceDefinition>) -> Self {
        self.crds.extend(crds);
        self
    }

    /// Installs every CRD in the YAML/JSON files of `dir` (e.g. `config/crd/bases`).
    pub fn crd_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.crd_dirs.push(dir.into());
        self
    }

    /// Runs kube-controller-manager (garbage collection, Deployments, ReplicaSets) on a real
    /// control plane. The testkit collects garbage itself and runs no workload controllers.
    pub fn controller_manager(mut self, enabled: bool) -> Self {
        self.components.controller_manager = enabled;
        self
    }

    /// Runs kube-scheduler and kwok on a real control plane, so pods become Running and Ready.
    pub fn kwok(mut self, enabled: bool) -> Self {
        self.components.kwok = enabled;
        self
    }

    /// Starts kube-controller-manager and kwok only where `KUBEBUILDER_ASSETS` has them
    /// (setup-envtest ships only etcd and kube-apiserver) instead of failing;
    /// [`Environment::runs`] tells which run.
    pub fn only_available_components(mut self) -> Self {
        self.components.only_if_available = true;
        self
    }

    /// Deployments roll out as on a cluster whose Pods start at once: kube-controller-manager
    /// and kwok where `KUBEBUILDER_ASSETS` has them (see
    /// [`only_available_components`](Self::only_available_components)), the testkit's simulated
    /// Deployment controller offline (`ApiServer::run_deployment_controller`).
    /// [`Environment::pods_run`] tells whether they do.
    pub fn workloads(mut self) -> Self {
        self.workloads = true;
        self.components.controller_manager = true;
        self.components.kwok = true;
        self.components.only_if_available = true;
        self
    }

    /// On the testkit, pauses Tokio's clock (the test must run on a current-thread runtime, as
    /// `#[tokio::test]` does): waits and idle periods take no time, and the clock jumps when
    /// every task waits.
    pub fn paused_clock(mut self) -> Self {
        self.paused_clock = true;
        self
    }

    /// Adds a kube-apiserver flag on a real control plane (`--feature-gates=...`).
    pub fn api_server_flag(mut self, flag: impl Into<String>) -> Self {
        self.components.api_server_flags.push(flag.into());
        self
    }

    /// Makes the API server call `webhooks`: on a real control plane, a webhook server on a
    /// free port with a self-signed certificate, the webhook configurations pointing at it and
    /// the conversion webhook in the CRDs of converting kinds (controller-runtime's envtest
    /// `WebhookInstallOptions`); on the testkit, in-process.
    #[cfg(feature = "webhook")]
    pub fn webhooks(mut self, webhooks: webop_core::webhook::Webhooks) -> Self {
        self.webhooks = Some(webhooks);
        self
    }

    /// Starts the API server and installs the CRDs (and the webhooks). Must be called inside a
    /// Tokio runtime.
    pub async fn start(self) -> Result<Environment, Error> {
        #[cfg(feature = "webhook")]
        let webhooks = self.webhooks;
        let mut crds = self.crds;
        for dir in &self.crd_dirs {
            crds.extend(crds::read_dir(dir)?);
        }
        let assets = match self.backend {
            Backend::FromEnv => Assets::from_env(),
            Backend::Testkit => None,
            Backend::Real(assets) => Some(assets),
        };
        let Some(assets) = assets else {
            #[allow(unused_mut)] // without feature `webhook`
            let mut server = ApiServer::new();
            #[cfg(feature = "webhook")]
            if let Some(webhooks) = webhooks {
                server = server.with_webhooks(webhooks);
            }
            if self.paused_clock {
                tokio::time::pause();
            }
            if self.workloads {
                server.run_deployment_controller();
            }
            for crd in &crds {
                server.install_crd(crd).map_err(|e| Error::Install {
                    object: format!("CRD {}", crd.metadata.name.as_deref().unwrap_or_default()),
                    reason: e.to_string(),
                })?;
            }
            return Ok(Environment {
                server: Server::Testkit(server),
                pods_run: self.workloads,
                #[cfg(feature = "webhook")]
                _webhook_server: None,
            });
        };
        let plane = ControlPlane::start(&assets, self.components).await?;
        #[cfg(feature = "webhook")]
        let served = match &webhooks {
            Some(webhooks) => {
                Some(super::webhooks::serve(plane.client(), webhooks.clone(), &mut crds).await?)
            }
            None => None,
        };
        crds::install(&plane.client(), &crds).await?;
        #[cfg(feature = "webhook")]
        if let (Some(webhooks), Some((_, base))) = (&webhooks, &served) {
            super::webhooks::install(&plane.client(), webhooks, base).await?;
        }
        plane.announce();
        let counted_from = audit::len(plane.audit_log());
        let pods_run =
            self.workloads && plane.runs(Binary::Kwok) && plane.runs(Binary::ControllerManager);
        Ok(Environment {
            pods_run,
            server: Server::Real {
                plane: Box::new(plane),
                counted_from: std::sync::atomic::AtomicU64::new(counted_from),
            },
            #[cfg(feature = "webhook")]
            _webhook_server: served.map(|(server, _)| server),
        })
    }
}

#[derive(Debug)]
enum Server {
    Testkit(ApiServer),
    Real {
        plane: Box<ControlPlane>,
        /// Where in the audit log request counting starts.
        counted_from: std::sync::atomic::AtomicU64,
    },
}

/// A running test environment. Dropping it stops the control plane.
#[derive(Debug)]
pub struct Environment {
    server: Server,
    /// Whether Deployments' Pods run and become available.
    pods_run: bool,
    /// The webhook server the API server calls, stopped with the environment.
    #[cfg(feature = "webhook")]
    _webhook_server: Option<super::webhooks::WebhookServer>,
}

impl Environment {
    /// A builder, to add CRDs and components.
    pub fn builder() -> EnvironmentBuilder {
        EnvironmentBuilder::default()
    }

    /// An environment from `KUBEBUILDER_ASSETS` with no CRDs and no extra components.
    pub async fn start() -> Result<Self, Error> {
        Self::builder().start().await
    }

    /// A client with cluster-admin rights (default namespace `default`).
    pub fn client(&self) -> kube::Client {
        match &self.server {
            Server::Testkit(server) => server.client(),
            Server::Real { plane, .. } => plane.client(),
        }
    }

    /// Whether this is a real control plane.
    pub fn is_real(&self) -> bool {
        matches!(self.server, Server::Real { .. })
    }

    /// Whether Deployments roll out: [`EnvironmentBuilder::workloads`] was asked for, and on a
    /// real control plane kube-controller-manager and kwok run.
    pub fn pods_run(&self) -> bool {
        self.pods_run
    }

    /// Whether `binary` runs (always false on the testkit, which collects garbage itself and
    /// runs no workload controllers).
    pub fn runs(&self, binary: Binary) -> bool {
        self.control_plane().is_some_and(|plane| plane.runs(binary))
    }

    /// A client acting as `user`, who may do only what the ClusterRoles and Roles of `files`
    /// grant (e.g. `config/rbac/role.yaml`): on a real API server, a controller run with it
    /// proves its RBAC manifests are enough. The testkit authorizes nothing, so there it is the
    /// admin client.
    pub async fn client_with_rbac(
        &self,
        user: &str,
        files: &[&std::path::Path],
    ) -> Result<kube::Client, Error> {
        match &self.server {
            Server::Testkit(server) => Ok(server.client()),
            Server::Real { plane, .. } => {
                super::rbac::client_with_roles(plane, user, files, None).await
            }
        }
    }

    /// [`client_with_rbac`](Self::client_with_rbac) for a namespace-scoped manager deployed to
    /// `namespace`: the Roles of `files` are installed there, whatever namespace they name, as
    /// kustomize's `namespace:` moves them to the namespace it deploys to.
    pub async fn client_with_rbac_in(
        &self,
        user: &str,
        files: &[&std::path::Path],
        namespace: &str,
    ) -> Result<kube::Client, Error> {
        match &self.server {
            Server::Testkit(server) => Ok(server.client()),
            Server::Real { plane, .. } => {
                super::rbac::client_with_roles(plane, user, files, Some(namespace)).await
            }
        }
    }

    /// The in-memory API server, for what only it can do (fault injection, paused clocks).
    pub fn testkit(&self) -> Option<&ApiServer> {
        match &self.server {
            Server::Testkit(server) => Some(server),
            Server::Real { .. } => None,
        }
    }

    /// The real control plane (kubeconfig, logs, version).
    pub fn control_plane(&self) -> Option<&ControlPlane> {
        match &self.server {
            Server::Testkit(_) => None,
            Server::Real { plane, .. } => Some(plane),
        }
    }

    /// The real control plane, to stop and restart its processes.
    pub fn control_plane_mut(&mut self) -> Option<&mut ControlPlane> {
        match &mut self.server {
            Server::Testkit(_) => None,
            Server::Real { plane, .. } => Some(plane),
        }
    }

    /// What the tests run against, in one line.
    pub fn describe(&self) -> String {
        match &self.server {
            Server::Testkit(_) => "webop testkit (in-memory API server)".to_owned(),
            Server::Real { plane, .. } => plane.describe(),
        }
    }

    /// The API requests the server received from the test's clients since the start or the last
    /// [`reset_request_counts`](Self::reset_request_counts): from the testkit's counters, or
    /// from the real API server's audit log (the control plane's own components left out).
    pub fn request_counts(&self) -> Result<RequestCounts, Error> {
        match &self.server {
            Server::Testkit(server) => Ok(RequestCounts::from_map(server.counters().snapshot())),
            Server::Real {
                plane,
                counted_from,
            } => {
                let offset = counted_from.load(std::sync::atomic::Ordering::SeqCst);
                Ok(audit::count(&audit::read_from(plane.audit_log(), offset)?))
            }
        }
    }

    /// Starts counting requests afresh.
    pub fn reset_request_counts(&self) {
        match &self.server {
            Server::Testkit(server) => server.counters().reset(),
            Server::Real {
                plane,
                counted_from,
            } => counted_from.store(
                audit::len(plane.audit_log()),
                std::sync::atomic::Ordering::SeqCst,
            ),
        }
    }
}
