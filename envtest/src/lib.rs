//! controller-runtime's envtest for Rust: tests against a real kube-apiserver.
//!
//! [`Environment::start`] reads `KUBEBUILDER_ASSETS` (the variable and file names of
//! controller-runtime's envtest, filled by `setup-envtest` or by webop's `tools/k8s-assets`).
//! When it is set, the environment is a real control plane on loopback ports: etcd and
//! kube-apiserver with fresh certificates, and on request kube-controller-manager (garbage
//! collection, Deployments, ReplicaSets), kube-scheduler and kwok (fake nodes whose pods become
//! Ready). When it is not, the environment is webop's in-memory [`testkit`](webop_testkit): the
//! same test body runs offline. Either way the environment installs the CRDs it is given and
//! waits until they are served, and [`Environment::client`] is an authenticated `kube::Client`.
//!
//! ```no_run
//! # async fn example() -> Result<(), webop_envtest::Error> {
//! use webop_envtest::Environment;
//!
//! let env = Environment::builder()
//!     .crd_dir("config/crd/bases")
//!     .controller_manager(true)
//!     .start()
//!     .await?;
//! let client = env.client();
//! println!("testing against {}", env.describe());
//! # Ok(()) }
//! ```
//!
//! Everything a real environment starts is stopped, and its temporary directory removed, when
//! the environment is dropped, also when a test panics. If the test process dies without
//! unwinding (SIGKILL, `abort`), a sentinel process kills the control plane and removes the
//! directory within a second.

mod assets;
mod audit;
mod certs;
mod control_plane;
mod crds;
mod environment;
mod kubeconfig;
mod kwok;
mod process;
mod rbac;
mod scratch_dir;
mod waiting;
#[cfg(feature = "webhook")]
mod webhooks;

use std::path::{Path, PathBuf};

pub use assets::{ASSETS_VARIABLE, Assets, Binary};
pub use audit::RequestCounts;
pub use control_plane::{ADMIN_USER, Components, ControlPlane};
pub use environment::{Backend, Environment, EnvironmentBuilder};
pub use waiting::{PATIENCE, exists};

/// Why an environment could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A binary is not in the assets directory.
    #[error(
        "{binary} not found in {dir} ({ASSETS_VARIABLE}); build the control plane's binaries with \
         tools/k8s-assets in a webop checkout (or fetch them with setup-envtest) and set \
         {ASSETS_VARIABLE} to the directory it prints"
    )]
    MissingBinary {
        /// The file name.
        binary: &'static str,
        /// The directory searched.
        dir: PathBuf,
    },
    /// A real API server was asked for, but `KUBEBUILDER_ASSETS` is not set.
    #[error(
        "a real kube-apiserver was requested but {ASSETS_VARIABLE} is not set; build the \
         binaries with tools/k8s-assets and set {ASSETS_VARIABLE} to the directory it prints"
    )]
    NoAssets,
    /// A file or process operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file, directory or program.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A certificate could not be made.
    #[error("generating a certificate: {0}")]
    Certificate(String),
    /// A process of the control plane exited.
    #[error("{process} exited ({status}); its last output:\n{log_tail}")]
    Exited {
        /// The process.
        process: &'static str,
        /// Its exit status.
        status: String,
        /// The end of its log.
        log_tail: String,
    },
    /// Something did not happen in time.
    #[error("timed out waiting for {what}; kube-apiserver's last output:\n{log_tail}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// The end of the API server's log.
        log_tail: String,
    },
    /// A process to kill or restart does not run in this control plane.
    #[error("{0} does not run in this control plane")]
    NotRunning(&'static str),
    /// The client could not be built or a request failed.
    #[error("kube client: {0}")]
    Client(String),
    /// A CRD directory does not exist (as controller-runtime's `ErrorIfCRDPathMissing`).
    #[error(
        "CRD directory {0} does not exist; generate the CRDs first (`make manifests` runs \
         `webop manifests`)"
    )]
    MissingCrdDir(PathBuf),
    /// A manifest file (CRDs, RBAC roles) is not valid YAML or JSON.
    #[error("{path}: not a valid manifest: {reason}")]
    InvalidManifest {
        /// The file.
        path: PathBuf,
        /// The parse error.
        reason: String,
    },
    /// An object (a CRD, an RBAC role) could not be installed, or a CRD was not served in time.
    #[error("installing {object}: {reason}")]
    Install {
        /// What (`CRD webapps.app.example.com`, `ClusterRole manager-role`).
        object: String,
        /// Why.
        reason: String,
    },
}

impl Error {
    fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_owned(),
            source,
        }
    }
}
