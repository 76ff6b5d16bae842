//! What a started control plane offers its tests: its address, kubeconfig and clients, the
//! processes to stop and restart (faults), and what to print about it.

use std::io::Write as _;
use std::path::Path;

use super::super::Error;
use super::super::assets::Binary;
use super::super::process::Process;
use super::{ControlPlane, kubeconfig, masters_kubeconfig};

impl ControlPlane {
    /// The API server's address (`https://127.0.0.1:<port>`).
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The API server's version (`v1.37.2`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// A kubeconfig (cluster admin) for kubectl and other clients.
    pub fn kubeconfig(&self) -> &str {
        &self.kubeconfig
    }

    /// The kubeconfig's file, for `kubectl --kubeconfig`.
    pub fn kubeconfig_path(&self) -> &Path {
        &self.kubeconfig_path
    }

    /// The control plane's directory: certificates, kubeconfigs, logs, etcd's data.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A client acting as the cluster admin.
    pub fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// A kubeconfig for `user` in `system:masters` (a cluster admin under a name of its own,
    /// which the audit log records): for clients that must be told apart, such as replicas.
    pub fn admin_kubeconfig_as(&self, user: &str) -> Result<String, Error> {
        masters_kubeconfig(&self.authority, &self.server, user)
    }

    /// Kills `binary` (SIGKILL, as a crash) and leaves it down until [`ControlPlane::restart`].
    pub fn kill(&mut self, binary: Binary) -> Result<(), Error> {
        self.process(binary)?.stop();
        Ok(())
    }

    /// Starts `binary` again as it first ran (same ports, same data: etcd keeps its objects),
    /// killing it first if it runs; for kube-apiserver, waits until it is ready again.
    pub async fn restart(&mut self, binary: Binary) -> Result<(), Error> {
        self.process(binary)?.restart()?;
        if binary == Binary::ApiServer {
            self.wait_ready().await?;
        }
        Ok(())
    }

    fn process(&mut self, binary: Binary) -> Result<&mut Process, Error> {
        let name = binary.file_name();
        self.processes
            .iter_mut()
            .find(|process| process.name() == name)
            .ok_or(Error::NotRunning(name))
    }

    /// A client for `user`, in no group: it may do what RBAC grants that user, nothing more.
    pub async fn client_as(&self, user: &str) -> Result<kube::Client, Error> {
        let credentials = self.authority.client(user, None)?;
        let config =
            kubeconfig::render(&self.server, self.authority.cert_pem(), user, &credentials);
        kubeconfig::client(&config).await
    }

    /// The API server's audit log.
    pub fn audit_log(&self) -> &Path {
        &self.audit_log
    }

    /// What runs, in one line: `kube-apiserver v1.37.2 at https://127.0.0.1:41234 (etcd,
    /// kube-controller-manager, kube-scheduler, kwok)`.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self
            .processes
            .iter()
            .map(Process::name)
            .filter(|name| *name != "kube-apiserver")
            .collect();
        format!(
            "kube-apiserver {} at {} ({})",
            self.version,
            self.server,
            names.join(", ")
        )
    }

    /// The name and process id of each running process, for checks that none outlives it.
    pub fn process_ids(&self) -> Vec<(&'static str, u32)> {
        self.processes.iter().map(|p| (p.name(), p.id())).collect()
    }

    /// Whether `binary` runs in this control plane.
    pub fn runs(&self, binary: Binary) -> bool {
        self.processes
            .iter()
            .any(|process| process.name() == binary.file_name())
    }

    /// Writes one line naming the server to the test's standard error, past the test harness's
    /// output capture, so `cargo test` logs which API server the tests ran against.
    pub fn announce(&self) {
        let _ = writeln!(std::io::stderr(), "webop envtest: {}", self.describe());
    }
}
