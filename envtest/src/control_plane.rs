//! A real control plane on loopback ports: etcd and kube-apiserver, and on request
//! kube-controller-manager (garbage collection, Deployments, ReplicaSets), kube-scheduler and
//! kwok (fake nodes that run pods), all in one temporary directory that goes with it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::assets::{Assets, Binary};
use super::certs::{self, Authority};
use super::process::{self, Process, Sentinel};
use super::scratch_dir::ScratchDir;
use super::{Error, audit, kubeconfig, kwok};

mod running;

/// How long the API server may take to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(90);

/// How many times a start is tried when etcd or the API server loses its port to another process.
const PORT_RACE_ATTEMPTS: usize = 5;

/// The user the test's clients act as (a cluster admin, through the `system:masters` group).
pub const ADMIN_USER: &str = "webop-envtest-admin";

/// What to run besides etcd and kube-apiserver.
#[derive(Debug, Clone, Default)]
pub struct Components {
    /// kube-controller-manager: garbage collection, Deployments, ReplicaSets, namespaces.
    pub controller_manager: bool,
    /// kube-scheduler and kwok: pods are scheduled to a fake node and become Running and Ready.
    pub kwok: bool,
    /// Start the components above only where their binaries are in the assets directory
    /// (setup-envtest ships only etcd and kube-apiserver); otherwise a missing one is an error.
    pub only_if_available: bool,
    /// Extra kube-apiserver flags (`--feature-gates=...`).
    pub api_server_flags: Vec<String>,
}

impl Components {
    /// The components that will run from `assets`, or the error naming a missing binary.
    fn resolve(mut self, assets: &Assets) -> Result<Self, Error> {
        let available = |binaries: &[Binary]| binaries.iter().all(|b| assets.has(*b));
        if self.only_if_available {
            self.controller_manager &= available(&[Binary::ControllerManager]);
            self.kwok &= available(&[Binary::Scheduler, Binary::Kwok]);
        }
        let mut required = vec![Binary::Etcd, Binary::ApiServer];
        if self.controller_manager {
            required.push(Binary::ControllerManager);
        }
        if self.kwok {
            required.extend([Binary::Scheduler, Binary::Kwok]);
        }
        for binary in required {
            assets.path(binary)?;
        }
        Ok(self)
    }
}

/// The running control plane. Dropping it stops every process and removes its directory.
pub struct ControlPlane {
    processes: Vec<Process>,
    sentinel: Option<Sentinel>,
    dir: ScratchDir,
    server: String,
    version: String,
    kubeconfig: String,
    kubeconfig_path: PathBuf,
    audit_log: PathBuf,
    client: kube::Client,
    authority: Authority,
}

impl std::fmt::Debug for ControlPlane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControlPlane")
            .field("server", &self.server)
            .field("version", &self.version)
            .field("dir", &self.dir.path())
            .finish_non_exhaustive()
    }
}

/// A file of the control plane's directory, written.
fn write_file(dir: &Path, name: &str, text: &str) -> Result<PathBuf, Error> {
    let path = dir.join(name);
    kubeconfig::write(&path, text)?;
    Ok(path)
}

/// A kubeconfig for `user` in `system:masters` (cluster admin).
fn masters_kubeconfig(authority: &Authority, server: &str, user: &str) -> Result<String, Error> {
    let credentials = authority.client(user, Some("system:masters"))?;
    Ok(kubeconfig::render(
        server,
        authority.cert_pem(),
        user,
        &credentials,
    ))
}

fn flag(name: &str, value: impl std::fmt::Display) -> String {
    format!("--{name}={value}")
}

impl ControlPlane {
    /// Starts etcd and kube-apiserver (and `components`) from `assets`, and waits until the API
    /// server is ready and the `default` namespace exists.
    pub async fn start(assets: &Assets, components: Components) -> Result<Self, Error> {
        // Every binary is checked before anything starts.
        let components = components.resolve(assets)?;
        let mut attempt = 1;
        loop {
            match Self::start_once(assets, &components).await {
                Err(Error::Exited { log_tail, .. })
                    if attempt < PORT_RACE_ATTEMPTS && process::lost_port_race(&log_tail) =>
                {
                    // The failed attempt's processes and directory went with its error path.
                    attempt += 1;
                }
                result => return result,
            }
        }
    }

    async fn start_once(assets: &Assets, components: &Components) -> Result<Self, Error> {
        let etcd = assets.path(Binary::Etcd)?;
        let api_server = assets.path(Binary::ApiServer)?;
        let dir =
            ScratchDir::new("webop-envtest-").map_err(|e| Error::io(&std::env::temp_dir(), e))?;
        let root = dir.path().to_owned();

        let authority = Authority::new()?;
        let ca = write_file(&root, "ca.crt", authority.cert_pem())?;
        let serving = authority.serving("kube-apiserver")?;
        let serving_cert = write_file(&root, "apiserver.crt", &serving.cert_pem)?;
        let serving_key = write_file(&root, "apiserver.key", &serving.key_pem)?;
        let (private_key, public_key) = certs::service_account_key()?;
        let service_account_key = write_file(&root, "service-account.key", &private_key)?;
        let service_account_public_key = write_file(&root, "service-account.pub", &public_key)?;
        let audit_policy = write_file(&root, "audit-policy.yaml", audit::POLICY)?;
        let audit_log = root.join("audit.log");

        let etcd_port = process::free_port()?;
        let etcd_peer_port = process::free_port()?;
        let etcd_url = format!("http://127.0.0.1:{etcd_port}");
        let peer_url = format!("http://127.0.0.1:{etcd_peer_port}");
        let etcd_args = vec![
            flag("name", "envtest"),
            flag("data-dir", root.join("etcd").display()),
            flag("listen-client-urls", &etcd_url),
            flag("advertise-client-urls", &etcd_url),
            flag("listen-peer-urls", &peer_url),
            flag("initial-advertise-peer-urls", &peer_url),
            flag("initial-cluster", format!("envtest={peer_url}")),
            // A test's data is thrown away: no fsync, and no metrics or logs worth the time.
            flag("unsafe-no-fsync", true),
            flag("log-level", "warn"),
        ];
        let etcd = Process::spawn("etcd", &etcd, &etcd_args, &root, None)?;
        let group = etcd.id();
        let sentinel = Sentinel::watch(group, &root)?;
        let mut processes = vec![etcd];

        let port = process::free_port()?;
        let server = format!("https://127.0.0.1:{port}");
        let mut api_server_args = vec![
            flag("etcd-servers", &etcd_url),
            flag("bind-address", "127.0.0.1"),
            flag("advertise-address", "127.0.0.1"),
            flag("secure-port", port),
            flag("cert-dir", root.display()),
            flag("tls-cert-file", serving_cert.display()),
            flag("tls-private-key-file", serving_key.display()),
            flag("client-ca-file", ca.display()),
            flag("service-account-issuer", &server),
            flag(
                "service-account-key-file",
                service_account_public_key.display(),
            ),
            flag(
                "service-account-signing-key-file",
                service_account_key.display(),
            ),
            // Room for thousands of Services (a /24 runs out at 254, as the chaos test found).
            flag("service-cluster-ip-range", "10.0.0.0/16"),
            flag("allow-privileged", true),
            flag("authorization-mode", "RBAC"),
            // Pods need no service-account token (controller-runtime's envtest does the same),
            // and kwok's node is schedulable at once: no node-lifecycle controller runs to lift
            // the not-ready taint that TaintNodesByCondition puts on a new node.
            flag(
                "disable-admission-plugins",
                "ServiceAccount,TaintNodesByCondition",
            ),
            flag("audit-policy-file", audit_policy.display()),
            flag("audit-log-path", audit_log.display()),
            flag("audit-log-format", "json"),
            // The counts read one file: the default rotation at 100 MB (about one run at
            // 1,000 WebApps) would move the first requests out of it. 100 GB is never reached.
            flag("audit-log-maxsize", "102400"),
            flag("endpoint-reconciler-type", "none"),
        ];
        api_server_args.extend(components.api_server_flags.iter().cloned());
        processes.push(Process::spawn(
            "kube-apiserver",
            &api_server,
            &api_server_args,
            &root,
            Some(group),
        )?);

        let admin = masters_kubeconfig(&authority, &server, ADMIN_USER)?;
        let kubeconfig_path = write_file(&root, "kubeconfig", &admin)?;
        let client = kubeconfig::client(&admin).await?;
        let mut plane = Self {
            processes,
            sentinel: Some(sentinel),
            dir,
            server: server.clone(),
            version: String::new(),
            kubeconfig: admin,
            kubeconfig_path,
            audit_log,
            client,
            authority,
        };
        plane.wait_ready().await?;
        plane.version = plane
            .client
            .apiserver_version()
            .await
            .map_err(|e| Error::Client(e.to_string()))?
            .git_version;

        if components.controller_manager {
            let path = assets.path(Binary::ControllerManager)?;
            let config = write_file(
                &root,
                "controller-manager.kubeconfig",
                &masters_kubeconfig(&plane.authority, &server, "system:kube-controller-manager")?,
            )?;
            let args = vec![
                flag("kubeconfig", config.display()),
                flag("leader-elect", false),
                flag(
                    "controllers",
                    "garbagecollector,deployment,replicaset,namespace",
                ),
                flag("use-service-account-credentials", false),
                flag(
                    "service-account-private-key-file",
                    service_account_key.display(),
                ),
                flag("root-ca-file", ca.display()),
                flag("secure-port", 0),
                // client-go's 20 QPS would make the Deployment and ReplicaSet controllers the
                // slowest part of a test with a thousand Deployments.
                flag("kube-api-qps", 1000),
                flag("kube-api-burst", 2000),
            ];
            plane.spawn("kube-controller-manager", &path, &args)?;
        }
        if components.kwok {
            let path = assets.path(Binary::Scheduler)?;
            let config = write_file(
                &root,
                "scheduler.kubeconfig",
                &masters_kubeconfig(&plane.authority, &server, "system:kube-scheduler")?,
            )?;
            let args = vec![
                flag("kubeconfig", config.display()),
                flag("leader-elect", false),
                flag("secure-port", 0),
            ];
            plane.spawn("kube-scheduler", &path, &args)?;
            let config = write_file(
                &root,
                "kwok.kubeconfig",
                &masters_kubeconfig(&plane.authority, &server, "system:kwok")?,
            )?;
            let path = assets.path(Binary::Kwok)?;
            let stages = assets.kwok_stages();
            plane.spawn("kwok", &path, &kwok::args(&config, stages.as_deref()))?;
            kwok::create_node(&plane.client).await?;
        }
        Ok(plane)
    }

    fn spawn(&mut self, name: &'static str, program: &Path, args: &[String]) -> Result<(), Error> {
        let group = self.processes[0].group();
        let process = Process::spawn(name, program, args, self.dir.path(), Some(group))?;
        self.processes.push(process);
        Ok(())
    }

    /// Polls `/readyz` until it answers `ok`, failing at once if a process exits.
    async fn wait_ready(&mut self) -> Result<(), Error> {
        let deadline = tokio::time::Instant::now() + READY_TIMEOUT;
        loop {
            for process in &mut self.processes {
                process.check_running()?;
            }
            if self.is_ready().await {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                return Err(Error::Timeout {
                    what: format!("kube-apiserver at {} to become ready", self.server),
                    log_tail: self.processes[1].log_tail(),
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn is_ready(&self) -> bool {
        let request = http::Request::get("/readyz")
            .body(Vec::new())
            .expect("a static request");
        let ready = matches!(self.client.request_text(request).await, Ok(body) if body == "ok");
        // The API server creates `default` just after it is ready; tests create objects there.
        let namespaces: kube::Api<k8s_openapi::api::core::v1::Namespace> =
            kube::Api::all(self.client.clone());
        ready && namespaces.get_opt("default").await.ok().flatten().is_some()
    }
}

impl Drop for ControlPlane {
    fn drop(&mut self) {
        // Clients first (kwok, scheduler, controller-manager), then the API server, then etcd.
        while let Some(mut process) = self.processes.pop() {
            process.stop();
        }
        // The sentinel has nothing left to do; the directory goes with `self.dir`.
        self.sentinel.take();
    }
}
