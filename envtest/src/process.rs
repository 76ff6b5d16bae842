//! The control plane's processes: started in one process group with their output in log files,
//! stopped on drop, and watched by a sentinel that kills the group and removes the environment's
//! directory if the test process dies without dropping them (SIGKILL, `abort`, a timeout).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::Error;

/// One running binary.
#[derive(Debug)]
pub struct Process {
    name: &'static str,
    child: Child,
    log: PathBuf,
    /// How it was started, to start it again ([`Process::restart`]).
    program: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
    /// The process group it belongs to (its own pid when it led a new one).
    group: u32,
}

/// A test's control plane lives for seconds to minutes and holds little: its Go garbage collector
/// may let the heap grow to five times what is live (GOGC=400, within a 3 GiB soft limit) where
/// production's default is twice. That takes about 15% off the CPU time of kube-apiserver (most
/// of it starting up: 79 against 68 CPU seconds for 45 of them in webop-testkit's tests, on the
/// real server). A `GOGC` or `GOMEMLIMIT` of the test's own environment is kept.
fn garbage_collect_less(command: &mut Command) {
    if std::env::var_os("GOGC").is_none() && std::env::var_os("GOMEMLIMIT").is_none() {
        command.env("GOGC", "400").env("GOMEMLIMIT", "3GiB");
    }
}

impl Process {
    /// Starts `program` with `args`, its stdout and stderr in `<dir>/<name>.log`, in process
    /// group `group` (or a new group led by itself).
    pub fn spawn(
        name: &'static str,
        program: &Path,
        args: &[String],
        dir: &Path,
        group: Option<u32>,
    ) -> Result<Self, Error> {
        let log = dir.join(format!("{name}.log"));
        let output = File::create(&log).map_err(|e| Error::io(&log, e))?;
        let child = Self::command(program, args, dir, group, output)?;
        let group = group.unwrap_or(child.id());
        Ok(Self {
            name,
            child,
            log,
            program: program.to_owned(),
            args: args.to_vec(),
            dir: dir.to_owned(),
            group,
        })
    }

    fn command(
        program: &Path,
        args: &[String],
        dir: &Path,
        group: Option<u32>,
        output: File,
    ) -> Result<Child, Error> {
        use std::os::unix::process::CommandExt;

        let errors = output.try_clone().map_err(|e| Error::io(dir, e))?;
        let mut command = Command::new(program);
        garbage_collect_less(&mut command);
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(output)
            .stderr(errors)
            // Not 0-as-"new group" when a group is given: `group` is the leader's pid.
            .process_group(group.map_or(0, |leader| leader as i32))
            .spawn()
            .map_err(|e| Error::io(program, e))
    }

    /// Kills the process if it runs, and starts it again as it was started, in the same
    /// process group (which outlives its leader while other members run), its output
    /// appended to the same log.
    pub fn restart(&mut self) -> Result<(), Error> {
        self.stop();
        let output = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.log)
            .map_err(|e| Error::io(&self.log, e))?;
        self.child = Self::command(
            &self.program,
            &self.args,
            &self.dir,
            Some(self.group),
            output,
        )?;
        Ok(())
    }

    /// The name it was started under (`kube-apiserver`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The process group it runs in.
    pub fn group(&self) -> u32 {
        self.group
    }

    /// If the process has exited: an error with the end of its log.
    pub fn check_running(&mut self) -> Result<(), Error> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(status)) => Err(Error::Exited {
                process: self.name,
                status: status.to_string(),
                log_tail: self.log_tail(),
            }),
            Err(error) => Err(Error::io(&self.log, error)),
        }
    }

    /// The last lines of the process's output.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// Kills the process and waits for it. Test servers keep nothing worth a graceful stop:
    /// their data directory is removed next.
    pub fn stop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A `sh` process that waits for the test process to end, then kills the process group and
/// removes the directory. On a normal drop it is stopped first and does nothing.
#[derive(Debug)]
pub struct Sentinel {
    child: Child,
}

impl Sentinel {
    /// Watches this process on behalf of process group `group` and directory `dir`.
    pub fn watch(group: u32, dir: &Path) -> Result<Self, Error> {
        const SCRIPT: &str = r#"while kill -0 "$1" 2>/dev/null; do sleep 1; done
kill -s KILL -- "-$2" 2>/dev/null
rm -rf -- "$3""#;
        let child = Command::new("sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg("webop-envtest-sentinel")
            .arg(std::process::id().to_string())
            .arg(group.to_string())
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::io(Path::new("sh"), e))?;
        Ok(Self { child })
    }
}

impl Drop for Sentinel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on the loopback interface, never one this process has handed out before.
///
/// The port is released before the server binds it, so another process (or an outgoing
/// connection's ephemeral port) can take it first, as with controller-runtime's envtest; the
/// control plane retries with fresh ports when a server exits on `address already in use`.
/// Within this process the set below rules out the common race: tests that start environments
/// in parallel and are handed the same just-released port by the kernel.
pub fn free_port() -> Result<u16, Error> {
    static HANDED_OUT: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let address = Path::new("127.0.0.1:0");
    for _ in 0..64 {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| Error::io(address, e))?;
        let port = listener
            .local_addr()
            .map_err(|e| Error::io(address, e))?
            .port();
        let mut handed_out = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
        if handed_out.insert(port) {
            return Ok(port);
        }
    }
    Err(Error::io(
        address,
        std::io::Error::new(
            std::io::ErrorKind::AddrInUse,
            "64 ports in a row had been handed out before",
        ),
    ))
}

/// Whether a server's log says it could not bind its port.
pub fn lost_port_race(log_tail: &str) -> bool {
    log_tail.contains("address already in use")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_ports_are_never_handed_out_twice() {
        let ports: Vec<u16> = (0..200).map(|_| free_port().unwrap()).collect();
        let distinct: std::collections::BTreeSet<u16> = ports.iter().copied().collect();
        assert_eq!(distinct.len(), ports.len());
    }

    #[test]
    fn a_bind_failure_is_recognised_in_etcd_and_api_server_logs() {
        let etcd = r#"{"level":"fatal","msg":"discovery failed","error":"listen tcp 127.0.0.1:38283: bind: address already in use"}"#;
        let api_server = "E1202 failed to create listener: failed to listen on 127.0.0.1:41234: listen tcp 127.0.0.1:41234: bind: address already in use";
        assert!(lost_port_race(etcd));
        assert!(lost_port_race(api_server));
        assert!(!lost_port_race(
            "panic: open /nonexistent: no such file or directory"
        ));
    }
}
