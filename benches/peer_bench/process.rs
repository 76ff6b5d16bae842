//! The operators as processes: built (webop's golden operator with the release profile, or the
//! dev profile where its build must be quick, the Go peer with `go build`), started against the
//! control plane, sampled through /proc and stopped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::build_lock;

/// Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat, 100 on every architecture
/// the kernel supports (sysconf(_SC_CLK_TCK) would need libc, and unsafe code is forbidden).
const TICKS_PER_SECOND: f64 = 100.0;

/// Which operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// testdata/webapp-operator, built with a Cargo [`Profile`].
    Webop,
    /// benches/peer, controller-runtime.
    Go,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::Webop => "webop",
            Operator::Go => "go",
        }
    }

    /// The binary: `$WEBOP_PEER_WEBOP` / `$WEBOP_PEER_GO` if set, else built now under
    /// `<target>/peer/` (where Cargo's and Go's caches make a second build quick).
    pub fn build(self, profile: Profile) -> Result<PathBuf, String> {
        let variable = format!("WEBOP_PEER_{}", self.name().to_uppercase());
        if let Some(path) = std::env::var_os(&variable) {
            return Ok(PathBuf::from(path));
        }
        let source = Path::new(env!("CARGO_MANIFEST_DIR"));
        let target = target_dir();
        let out = target.join("peer");
        std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
        eprintln!("peer bench: building the {} operator", self.name());
        match self {
            Operator::Go => {
                run(Command::new(source.join("benches/peer/build.sh")).arg(&out))?;
                Ok(out.join("webapp-operator-go"))
            }
            Operator::Webop => {
                // A copy of the golden with this checkout's webop, as `webop init` sets a project
                // up; at a fixed path and with its files' times kept, so Cargo rebuilds only
                // what changed. Not inside the target directory: Cargo records the sources of a
                // crate that lives there relative to that directory, so a test's project of the
                // same names took this one's API library for its own, and never rebuilt it.
                let project = std::env::temp_dir()
                    .join(format!("webop-peer-bench-{}", checkout_id(source)))
                    .join("webapp-operator");
                // Where the copy was before: its files would go on passing for the sources of
                // every same-named project's API library.
                let _ = std::fs::remove_dir_all(out.join("webapp-operator"));
                copy_dir(&source.join("testdata/webapp-operator"), &project)?;
                // Cargo prunes the lock file to the project's packages: copied once, or every
                // run would rebuild.
                if !project.join("Cargo.lock").exists() {
                    copy_file(&source.join("Cargo.lock"), &project.join("Cargo.lock"))?;
                }
                let patch = format!(
                    "[patch.crates-io]\nwebop = {{ path = {:?} }}\nwebop-core = {{ path = {:?} }}\n",
                    source.join("webop").display().to_string(),
                    source.join("core").display().to_string()
                );
                std::fs::create_dir_all(project.join(".cargo")).map_err(|e| e.to_string())?;
                write_if_changed(&project.join(".cargo/config.toml"), patch.as_bytes())?;
                // Every project the tests generate in this target directory names its binary
                // and libraries as this one does: the build holds their lock, and the binary is
                // copied out before another build replaces it. The tests build with the dev
                // profile only: there the lock has this project's crates built again if another
                // one built last (the release ones are this golden's, from either bench).
                let _build = match profile {
                    Profile::Dev => build_lock::lock_project(&target, &project),
                    Profile::Release => build_lock::lock(&target),
                };
                run(webop_cli::cli::cargo::command()
                    .args(["build", "--quiet", "--bin", "webapp-operator"])
                    .args(["--profile", profile.cargo_name()])
                    .current_dir(&project)
                    .env("CARGO_TARGET_DIR", &target))?;
                let built = target.join(profile.directory()).join("webapp-operator");
                let binary = out.join(format!("webapp-operator-{}", profile.cargo_name()));
                std::fs::copy(&built, &binary).map_err(|e| format!("{}: {e}", built.display()))?;
                Ok(binary)
            }
        }
    }

    /// Starts `binary` against `kubeconfig` with the same client budget and one worker each
    /// (both frameworks' default), probes and metrics off, its output in `log`.
    pub fn start(
        self,
        binary: &Path,
        kubeconfig: &Path,
        qps: u32,
        log: &Path,
    ) -> Result<Running, String> {
        let mut args = vec![
            format!("--kube-api-qps={qps}"),
            format!("--kube-api-burst={}", qps * 2),
            // Leader election is off in both by default: a single replica.
            "--metrics-bind-address=0".to_owned(),
        ];
        args.extend(
            match self {
                Operator::Webop => [
                    "--health-probe-bind-address=127.0.0.1:0",
                    "--log-level=warn",
                ],
                Operator::Go => ["--health-probe-bind-address=0", "--zap-log-level=info"],
            }
            .map(str::to_owned),
        );
        let output = std::fs::File::create(log).map_err(|e| e.to_string())?;
        let errors = output.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(binary)
            .args(&args)
            .env("KUBECONFIG", kubeconfig)
            .env_remove("KUBERNETES_SERVICE_HOST")
            .stdin(Stdio::null())
            .stdout(output)
            .stderr(errors)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        Ok(Running { child })
    }
}

/// The Cargo profile webop's operator is built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The generated project's release profile (one codegen unit, LTO, `opt-level = "s"`), as
    /// its image ships: what the figures compare.
    Release,
    /// Unoptimized, from the dependencies the tests already built: for CI, where a release build
    /// of kube and its dependencies would take longer than the run. Requests per object and idle
    /// writes are the same; CPU seconds and memory are a debug build's, higher.
    Dev,
}

impl Profile {
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "release" => Ok(Profile::Release),
            "dev" => Ok(Profile::Dev),
            other => Err(format!(
                "--profile {other}: the profiles are release and dev"
            )),
        }
    }

    pub fn cargo_name(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "dev",
        }
    }

    fn directory(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "debug",
        }
    }
}

/// A started operator.
pub struct Running {
    child: Child,
}

/// What /proc says of a process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    /// VmHWM: the peak resident set, in MiB.
    pub peak_rss_mib: f64,
    /// utime + stime, in seconds.
    pub cpu_seconds: f64,
}

impl Running {
    /// Peak memory and CPU time so far, or why not (the process exited).
    pub fn usage(&mut self) -> Result<Usage, String> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Err(format!("the operator exited ({status})"));
        }
        let pid = self.child.id();
        let status =
            std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
        let kib: f64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or("no VmHWM in /proc/<pid>/status")?;
        let stat =
            std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| e.to_string())?;
        // The fields after the command name, which is in parentheses and may hold spaces:
        // state is field 3, utime and stime fields 14 and 15.
        let after = stat
            .rsplit_once(')')
            .ok_or("no command in /proc/<pid>/stat")?
            .1;
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        let (utime, stime) = ticks(11)
            .zip(ticks(12))
            .ok_or("no utime in /proc/<pid>/stat")?;
        Ok(Usage {
            peak_rss_mib: kib / 1024.0,
            cpu_seconds: (utime + stime) / TICKS_PER_SECOND,
        })
    }

    /// SIGTERM, as Kubernetes stops a Pod; killed if it has not exited within 20 s.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("peer bench: the operator did not stop within 20 s of SIGTERM; killed");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("{command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

/// The target directory this bench was built in (`<target>/<profile>/deps/<bench>`).
pub fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().expect("the bench knows its path");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<bench>")
        .to_path_buf()
}

/// A name for this checkout, so that two checkouts' benches keep separate copies.
fn checkout_id(source: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            copy_file(&entry.path(), &target)?;
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
    write_if_changed(to, &bytes)
}

/// Writes `bytes` unless `path` holds them already: an unchanged file keeps its time, and
/// Cargo its build.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}
