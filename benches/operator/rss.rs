//! The generated operator as a process: its release build (size, stripped) and its peak memory
//! with N WebApps and their children cached, against a testkit served on loopback.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the release build may take before the figures that need it are skipped.
const BUILD_TIMEOUT: Duration = Duration::from_secs(30 * 60);

pub struct ReleaseBinary {
    pub path: PathBuf,
    pub stripped_bytes: u64,
}

/// Builds the golden project in release mode (in a copy, with this checkout's webop and
/// Cargo.lock, as `webop init` would set it up) and strips a copy of its binary.
pub fn build_release_operator() -> Result<ReleaseBinary, String> {
    if let Some(binary) = std::env::var_os("WEBOP_BENCH_OPERATOR") {
        return strip_copy(PathBuf::from(binary), &std::env::temp_dir());
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::temp_dir().join(format!("webop-operator-bench-{}", std::process::id()));
    let project = work.join("webapp-operator");
    copy_dir(&source.join("testdata/webapp-operator"), &project)
        .map_err(|e| format!("copy: {e}"))?;
    std::fs::copy(source.join("Cargo.lock"), project.join("Cargo.lock"))
        .map_err(|e| e.to_string())?;
    std::fs::create_dir_all(project.join(".cargo")).map_err(|e| e.to_string())?;
    let patch = format!(
        "[patch.crates-io]\nwebop = {{ path = {:?} }}\nwebop-core = {{ path = {:?} }}\n",
        source.join("webop").display().to_string(),
        source.join("core").display().to_string()
    );
    std::fs::write(project.join(".cargo/config.toml"), patch).map_err(|e| e.to_string())?;

    let target = target_dir();
    eprintln!(
        "building the generated operator in release mode (target {})",
        target.display()
    );
    let mut build = webop_cli::cli::cargo::command()
        .args(["build", "--release", "--quiet", "--bin", "webapp-operator"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", &target)
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = build.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > BUILD_TIMEOUT {
            let _ = build.kill();
            return Err(format!(
                "the release build took over {} s",
                BUILD_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    if !status.success() {
        return Err(format!("the release build failed ({status})"));
    }
    strip_copy(target.join("release/webapp-operator"), &work)
}

/// `binary`, with the size of a stripped copy of it written into `work`.
fn strip_copy(binary: PathBuf, work: &Path) -> Result<ReleaseBinary, String> {
    let stripped = work.join(format!("webapp-operator-{}.stripped", std::process::id()));
    let strip = Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(&binary)
        .status();
    let stripped_bytes = match strip {
        Ok(s) if s.success() => std::fs::metadata(&stripped)
            .map_err(|e| e.to_string())?
            .len(),
        _ => return Err("`strip` is not available".to_owned()),
    };
    Ok(ReleaseBinary {
        path: binary,
        stripped_bytes,
    })
}

/// The target directory this bench was built in (its executable is in `<target>/release/deps`).
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().expect("the bench knows its path");
    exe.ancestors()
        .nth(3)
        .expect("<target>/release/deps/<bench>")
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// The generated operator's peak resident memory (VmHWM), in MiB.
pub struct PeakRss {
    /// Once every WebApp is Running with its children cached.
    pub converged: f64,
    /// After every WebApp's spec has changed and converged again: the phase where events,
    /// applies' responses and watch updates of every child pass through at once.
    pub updated: f64,
}

/// Runs `binary` against a loopback testkit with `objects` WebApps until they are all Running,
/// then changes every spec and waits until they are all Running again, and returns its peak
/// resident memory at both points.
pub fn peak_rss_mib(binary: &Path, objects: usize) -> Result<PeakRss, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let server = crate::cluster::server();
        let address = server
            .serve_http("127.0.0.1:0".parse().unwrap())
            .await
            .map_err(|e| format!("cannot serve the testkit: {e}"))?;
        let driver = server.client();
        crate::cluster::create_webapps(&driver, objects).await;
        tokio::spawn(crate::cluster::simulate_deployment_controller(
            driver.clone(),
        ));

        let kubeconfig =
            std::env::temp_dir().join(format!("webop-bench-kubeconfig-{}", std::process::id()));
        std::fs::write(&kubeconfig, kubeconfig_for(&format!("http://{address}")))
            .map_err(|e| e.to_string())?;
        let mut child = Command::new(binary)
            .args([
                "--metrics-bind-address=127.0.0.1:0",
                "--health-probe-bind-address=127.0.0.1:0",
                // Memory does not depend on the pace; converge in seconds, not minutes.
                "--kube-api-qps=5000",
                "--kube-api-burst=5000",
                "--log-level=warn",
            ])
            .env("KUBECONFIG", &kubeconfig)
            .env_remove("KUBERNETES_SERVICE_HOST")
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let pid = child.id();

        let progress = crate::cluster::Running::watch(&driver);
        let measured = async {
            wait_until(&mut child, "converge", || progress.count() >= objects).await?;
            let converged = vm_hwm_kib(pid)?;
            crate::cluster::scale_webapps(&driver, objects, 3).await;
            wait_until(&mut child, "converge after the change", || {
                progress.count_with_replicas(3) >= objects
            })
            .await?;
            Ok::<_, String>(PeakRss {
                converged: converged as f64 / 1024.0,
                updated: vm_hwm_kib(pid)? as f64 / 1024.0,
            })
        }
        .await;
        if measured.is_err() {
            let _ = child.kill();
        }

        // SIGTERM, as Kubernetes stops a Pod: the manager shuts down gracefully.
        let _ = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status();
        let stop_deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    if !status.success() {
                        eprintln!("note: the operator exited with {status} after SIGTERM");
                    }
                    break;
                }
                _ if Instant::now() > stop_deadline => {
                    eprintln!("note: the operator did not stop within 20 s of SIGTERM; killed");
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        let _ = std::fs::remove_file(&kubeconfig);
        measured
    })
}

/// Waits until `done`, then lets the last reconciles and watch events settle; fails if the
/// operator exits or takes over 600 s.
async fn wait_until(child: &mut Child, what: &str, done: impl Fn() -> bool) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(600);
    while !done() {
        if Instant::now() > deadline {
            return Err(format!("the operator did not {what} in 600 s"));
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the operator exited early ({status})"));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    Ok(())
}

fn kubeconfig_for(server: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: testkit\n  cluster:\n    server: {server}\n\
         users:\n- name: testkit\n  user: {{}}\ncontexts:\n- name: testkit\n  context:\n    \
         cluster: testkit\n    user: testkit\n    namespace: default\ncurrent-context: testkit\n"
    )
}

/// `VmHWM` of `/proc/<pid>/status`, in KiB.
fn vm_hwm_kib(pid: u32) -> Result<u64, String> {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| "no VmHWM in /proc/<pid>/status".to_owned())
}
