//! `webop manifests`: regenerate the CRDs and the manager's ClusterRole from the code.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::Value;

use crate::project::Project;
use crate::scaffold::{RealFs, Templates};
use crate::scaffolds::{self, Request};

/// Regenerate config/crd/bases/*.yaml, config/rbac/role.yaml and config/webhook/manifests.yaml from the code (controller-gen's
/// `make manifests`).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    webop manifests\n\n  \
    # What `make manifests` runs; see which files would change\n  \
    webop manifests --dry-run\n\n  \
    # Cut every description to 512 bytes (controller-gen's crd:maxDescLen=512), or drop them (0)\n  \
    webop manifests --max-desc-len 512")]
pub struct ManifestsArgs {
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Cut the schemas' descriptions to this many bytes, at a sentence end where one fits; 0
    /// drops them (controller-gen's `crd:maxDescLen`, for CRDs too large for the API server).
    #[arg(long, value_name = "BYTES")]
    pub max_desc_len: Option<usize>,
}

pub(super) fn run(args: ManifestsArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, project) = Project::find(cwd)?;
    let templates = Templates::load()?;
    // What would refuse the command (an edited DO NOT EDIT file) refuses it before the build.
    scaffolds::plan(&RealFs, &templates, &request(&root, &project, &[]))?;
    let sources = SourceDirs::start(&root)?;
    let mut generated = Vec::new();
    if project.resources.iter().any(|r| r.api.is_some()) {
        // A dry run writes nothing: not even the Cargo.lock that the build resolves.
        let lock = root.join("Cargo.lock");
        let lock_before = args.dry_run.then(|| std::fs::read(&lock).ok());
        // The scaffold lock renders the whole project again at the end, a rustfmt run for each
        // Rust file (a third of the command's time after a type edit): rendered while the API
        // crate builds, mostly on one core, it finds them laid out.
        let built = std::thread::scope(|scope| {
            scope.spawn(|| {
                crate::upgrade::record::render_ahead(&RealFs, &templates, &root, &project);
            });
            crds(&root, &project)
        });
        if let Some(before) = lock_before {
            match before {
                Some(bytes) => std::fs::write(&lock, bytes),
                None => std::fs::remove_file(&lock).or_else(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => Ok(()),
                    _ => Err(e),
                }),
            }
            .context("cannot restore Cargo.lock after the dry run's build")?;
        }
        for mut crd in built? {
            if let Some(max_len) = args.max_desc_len {
                crate::manifests::truncate_descriptions(&mut crd, max_len);
            }
            let file = crate::manifests::try_crd_file(&crd)?;
            generated.push((path_string(&file.path), file.contents));
        }
    }
    let sources = sources.wait()?;
    generated.extend(manager_role(&sources, &project)?);
    let webhooks = crate::webhook::webhooks_in_dirs(&sources)
        .map_err(|e| anyhow::anyhow!("cannot collect the #[webhook]s: {e}"))?;
    if let Some(file) =
        crate::manifests::webhook_file(&webhooks.webhooks, &webhooks.configurations)?
    {
        generated.push((path_string(&file.path), file.contents));
    }

    super::scaffold(&request(&root, &project, &generated), args.dry_run, out)
}

/// The scaffold request of `manifests` writing `generated`, `(path, contents)`.
fn request<'a>(
    root: &'a Path,
    project: &'a Project,
    generated: &'a [(String, String)],
) -> Request<'a> {
    Request {
        root,
        before: Some(project),
        after: project,
        command: scaffolds::Command::Manifests(generated),
        force: false,
    }
}

/// `config/rbac/role.yaml` from the `#[rbac]` rules in `sources`, as `(path, contents)`; none
/// without rules, as controller-gen writes no role then. A namespace-scoped manager's rules go
/// to a Role in the project's namespace.
pub(super) fn manager_role(
    sources: &[std::path::PathBuf],
    project: &Project,
) -> anyhow::Result<Option<(String, String)>> {
    let rules = crate::rbac::rules_in_dirs(sources)
        .map_err(|e| anyhow::anyhow!("cannot collect the #[rbac] rules: {e}"))?;
    if rules.is_empty() {
        return Ok(None);
    }
    let namespace = project
        .namespaced
        .then(|| format!("{}-system", project.project_name));
    let role = crate::manifests::manager_role_file(&rules, namespace.as_deref());
    Ok(Some((path_string(&role.path), role.contents)))
}

/// The CustomResourceDefinitions the API crate's `crdgen` example prints, as JSON values.
///
/// Only `crdgen` and what it depends on compile (not the controllers, which may not compile yet
/// after a type change), in the project's own target directory (or `CARGO_TARGET_DIR`). It is an
/// example built with `--workspace` so that Cargo resolves features as `cargo test --workspace`
/// and `make build` (`--examples`) do: the dependencies compiled here are the ones those reuse.
fn crds(root: &Path, project: &Project) -> anyhow::Result<Vec<Value>> {
    let _examples = lock_shared_examples(root)?;
    let shown = "cargo build --workspace --example crdgen";
    let output = cargo_in(root)
        .args([
            "build",
            "--quiet",
            "--workspace",
            "--example",
            "crdgen",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run `{shown}`"))?;
    if !output.status.success() {
        bail!(
            "`{shown}` failed ({}): fix the API crate (see the errors above) and run `webop manifests` again",
            output.status
        );
    }
    let package = project.api_package_name();
    let crdgen = super::crdgen_artifact::executable(&output.stdout, &package)
        .with_context(|| format!("`{shown}` built no `crdgen` example of {package}"))?;
    let shown = crdgen.display();
    let output = Command::new(&crdgen)
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run `{shown}`"))?;
    if !output.status.success() {
        bail!("`{shown}` failed ({}): see the errors above", output.status);
    }
    let crds: Vec<Value> = serde_json::from_slice(&output.stdout)
        .with_context(|| format!("`{shown}` did not print a JSON array of CRDs"))?;
    Ok(crds)
}

/// Held while `crdgen` is built and run. Cargo copies the `crdgen` example of every project
/// to the same `<target>/debug/examples/crdgen`, so two projects that share a target directory
/// (`CARGO_TARGET_DIR`) and run `webop manifests` at once would otherwise run each other's.
fn lock_shared_examples(root: &Path) -> anyhow::Result<std::fs::File> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), |dir| root.join(dir));
    std::fs::create_dir_all(&target)
        .with_context(|| format!("cannot create {}", target.display()))?;
    let path = target.join(".webop-crdgen.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// A command of the project's cargo (see [`super::cargo`]), in the project's root and reading
/// nothing from webop's input.
fn cargo_in(root: &Path) -> Command {
    let mut cargo = super::cargo::command();
    cargo.current_dir(root).stdin(Stdio::null());
    cargo
}

/// The directories of the library and binary sources of every package of the workspace at
/// `root` (`src/`, `api/src/`), from `cargo metadata`: as controller-gen reads the markers of
/// every package of `paths=./...`, not their tests.
pub(super) fn source_dirs(root: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
    SourceDirs::start(root)?.wait()
}

/// `cargo metadata`, started: it runs while the API crate builds, rather than after it.
pub(super) struct SourceDirs {
    metadata: std::process::Child,
}

const METADATA: &str = "cargo metadata --no-deps --format-version 1";

impl SourceDirs {
    pub(super) fn start(root: &Path) -> anyhow::Result<Self> {
        let metadata = cargo_in(root)
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot run `{METADATA}`"))?;
        Ok(Self { metadata })
    }

    /// The directories, once `cargo metadata` has printed them.
    pub(super) fn wait(self) -> anyhow::Result<Vec<std::path::PathBuf>> {
        let output = self
            .metadata
            .wait_with_output()
            .with_context(|| format!("cannot run `{METADATA}`"))?;
        source_dirs_of(&output)
    }
}

fn source_dirs_of(output: &std::process::Output) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let shown = METADATA;
    if !output.status.success() {
        bail!(
            "`{shown}` failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let metadata: Value = serde_json::from_slice(&output.stdout)
        .with_context(|| format!("`{shown}` did not print JSON"))?;
    let mut dirs: Vec<std::path::PathBuf> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|package| package["targets"].as_array().into_iter().flatten())
        .filter(|target| {
            target["kind"].as_array().is_some_and(|kinds| {
                kinds
                    .iter()
                    .any(|k| k == "lib" || k == "bin" || k == "proc-macro")
            })
        })
        .filter_map(|target| target["src_path"].as_str())
        .filter_map(|path| Path::new(path).parent().map(Path::to_owned))
        .collect();
    dirs.sort();
    // `api/src/bin` is inside `api/src`: keep the outermost directories only.
    let mut outermost: Vec<std::path::PathBuf> = Vec::new();
    for dir in dirs {
        if !outermost.iter().any(|kept| dir.starts_with(kept)) {
            outermost.push(dir);
        }
    }
    Ok(outermost)
}

/// A manifest's project-relative path in the `/`-separated form the scaffold plan uses.
fn path_string(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
