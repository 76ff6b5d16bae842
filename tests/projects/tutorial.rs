//! docs/tutorial.md, run as a newcomer runs it: every `sh` block of the page, in order, in one
//! shell's working directory. The blocks up to "Run it on a cluster" always run (install webop,
//! scaffold, `make manifests`, `make test`); the cluster's blocks run with `KUBEBUILDER_ASSETS`
//! set, on a real control plane with kube-controller-manager and kwok that the test starts, as
//! the page's `envtest_cluster` does, with its kubeconfig as `KUBECONFIG`.
//!
//! Departures from the page, about where things go and what they run on, not what runs:
//! - `cargo install` gets `--debug --all-features --root <temp>`: it builds in the test's target
//!   directory (where `.ci/run` has built it already, as `cargo build -p webop-cli
//!   --all-features` does), its `target/debug/webop` is one the other tests can run (a build
//!   without `validate` would not be), and nothing is installed outside the test;
//! - the project gets the workspace's Cargo.lock once `webop init` has written its Cargo.toml,
//!   so that its dependencies are the ones the other tests built;
//! - the offline blocks run as on a machine without envtest's binaries: `make test` on the
//!   testkit (the golden's project, the same, runs its tests on the real server);
//! - `make run`, which the page leaves running in its own terminal, runs in the background until
//!   the test ends.

use crate::support;

use std::path::PathBuf;
use std::process::{Child, Command};

use support::{target_dir, workspace};
use webop_envtest::{Assets, Backend, Environment};

const TUTORIAL: &str = include_str!("../../docs/tutorial.md");

/// One `sh` block of the page.
#[derive(Debug)]
struct Block {
    script: String,
    /// After the heading of the section that runs the operator on a cluster.
    needs_cluster: bool,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut on_cluster = false;
    let mut current: Option<String> = None;
    for line in page.lines() {
        match &mut current {
            Some(script) if line == "```" => {
                blocks.push(Block {
                    script: std::mem::take(script),
                    needs_cluster: on_cluster,
                });
                current = None;
            }
            Some(script) => {
                script.push_str(line);
                script.push('\n');
            }
            None if line == "```sh" => current = Some(String::new()),
            None if line.starts_with("## ") => on_cluster |= line.contains("on a cluster"),
            None => {}
        }
    }
    blocks
}

/// A shell that runs blocks one after another, in the directory the last one left.
struct Shell {
    dir: PathBuf,
    /// Where each block leaves the directory it ended in, outside the project.
    pwd_file: PathBuf,
    install_root: PathBuf,
    kubeconfig: Option<PathBuf>,
    background: Vec<Child>,
}

impl Shell {
    fn command(&self, script: &str) -> Command {
        let path = format!(
            "{}:{}",
            self.install_root.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = Command::new("bash");
        // The tutorial's cargo runs as from the reader's shell, not with this test's package.
        webop_cli::cli::cargo::shell_environment(&mut command)
            .arg("-c")
            .arg(format!(
                "set -euo pipefail\n{script}pwd > \"$TUTORIAL_PWD\""
            ))
            .env("TUTORIAL_PWD", &self.pwd_file)
            .current_dir(&self.dir)
            .env("PATH", path)
            .env("CARGO_TARGET_DIR", target_dir());
        match &self.kubeconfig {
            Some(kubeconfig) => command.env("KUBECONFIG", kubeconfig),
            // As on a newcomer's machine without envtest's binaries: `make test` on the
            // testkit (the golden's project, the same, runs its tests on the real server).
            None => command.env_remove("KUBEBUILDER_ASSETS"),
        };
        command
    }

    fn run(&mut self, block: &Block) {
        support::pin_to_the_workspace_lock(&self.dir);
        let mut script = block.script.clone();
        if script.trim() == "make run" {
            // Its own process group, so that the operator `make` starts stops with it.
            use std::os::unix::process::CommandExt;
            let child = self.command(&script).process_group(0).spawn().unwrap();
            self.background.push(child);
            return;
        }
        if script.contains("cargo install") {
            let root = self.install_root.display();
            script = script.replace(
                "cargo install --locked --path .",
                &format!("cargo install --locked --path . --debug --all-features --root {root}"),
            );
        }
        eprintln!(
            "tutorial $ {}",
            script.trim_end().replace('\n', "\ntutorial $ ")
        );
        let status = self.command(&script).status().unwrap();
        assert!(status.success(), "the tutorial's block failed:\n{script}");
        let next = std::fs::read_to_string(&self.pwd_file).unwrap();
        self.dir = PathBuf::from(next.trim());
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        for child in &mut self.background {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_page_has_the_blocks_this_test_runs() {
    let blocks = blocks(TUTORIAL);
    assert!(blocks[0].script.contains("cargo install --locked --path ."));
    assert!(
        blocks
            .iter()
            .any(|b| b.script.trim() == "make run" && b.needs_cluster)
    );
    assert!(
        blocks
            .iter()
            .any(|b| b.script.contains("make test") && !b.needs_cluster)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tutorial_runs_as_written() {
    // Its project is a `webapp-operator` built in the shared target directory, as the others',
    // and written under the lock, in `temp`.
    let temp = tempfile::tempdir().unwrap();
    let _build = support::one_build_at_a_time(temp.path());
    let mut shell = Shell {
        dir: workspace(),
        pwd_file: temp.path().join("pwd"),
        install_root: temp.path().join("root"),
        kubeconfig: None,
        background: Vec::new(),
    };
    let blocks = blocks(TUTORIAL);
    let (offline, cluster): (Vec<_>, Vec<_>) = blocks.iter().partition(|b| !b.needs_cluster);
    for (index, block) in offline.iter().enumerate() {
        if index == 1 {
            // The project is made where a newcomer would make it: not in webop's clone.
            shell.dir = temp.path().to_path_buf();
        }
        tokio::task::block_in_place(|| shell.run(block));
    }
    assert!(
        shell.dir.ends_with("webapp-operator"),
        "{}",
        shell.dir.display()
    );
    let Some(assets) = Assets::from_env() else {
        eprintln!("KUBEBUILDER_ASSETS is not set: the tutorial's cluster section is not run");
        return;
    };
    let env = Environment::builder()
        .backend(Backend::Real(assets))
        .controller_manager(true)
        .kwok(true)
        .start()
        .await
        .unwrap();
    let plane = env.control_plane().unwrap();
    shell.kubeconfig = Some(plane.kubeconfig_path().to_path_buf());
    for block in cluster {
        tokio::task::block_in_place(|| shell.run(block));
    }
    // The operator stops before the control plane it talks to.
    drop(shell);
    drop(env);
}
