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
        use std::os::unix::process::CommandExt;

        let log = dir.join(format!("{name}.log"));
        let output = File::create(&log).map_err(|e| Error::io(&log, e))?;
        let errors = output.try_clone().map_err(|e| Error::io(&log, e))?;
        let child = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(output)
            .stderr(errors)
            // Not 0-as-"new group" when a group is given: `group` is the leader's pid.
            .process_group(group.map_or(0, |leader| leader as i32))
            .spawn()
            .map_err(|e| Error::io(program, e))?;
        Ok(Self { name, child, log })
    }

    /// The name it was started under (`kube-apiserver`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
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

/// A free TCP port on the loopback interface. The port is released before the server binds it,
/// so a race with another process is possible, as in controller-runtime's envtest.
pub fn free_port() -> Result<u16, Error> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| Error::io(Path::new("127.0.0.1:0"), e))?;
    listener
        .local_addr()
        .map(|address| address.port())
        .map_err(|e| Error::io(Path::new("127.0.0.1:0"), e))
}
