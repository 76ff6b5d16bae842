//! `webop init`: scaffold a new project into the current directory.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::{Args, ValueEnum};

use crate::project::{Project, validate};
use crate::scaffold::InitOptions;
use crate::scaffolds::{Command, Request};

/// Initialize a new project in the current directory (like `kubebuilder init`).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    mkdir webapp-operator && cd webapp-operator\n  \
    webop init --domain example.com --repo github.com/example/webapp-operator\n\n  \
    # Preview the files without writing them\n  \
    webop init --domain example.com --dry-run\n\n  \
    # With a weekly GitHub Actions workflow that runs `webop upgrade`\n  \
    webop init --domain example.com --plugins autoupdate")]
pub struct InitArgs {
    /// Domain of the project's API groups (group `app` + domain `example.com` → `app.example.com`).
    #[arg(long, allow_hyphen_values = true, default_value = "my.domain")]
    pub domain: String,
    /// Where the code lives, e.g. github.com/example/webapp-operator.
    #[arg(long, allow_hyphen_values = true)]
    pub repo: Option<String>,
    /// Project name [default: the directory's name].
    #[arg(long, allow_hyphen_values = true)]
    pub project_name: Option<String>,
    /// Copyright holder named in the README (default: "The `project name` Authors").
    #[arg(
        long,
        help = "Copyright holder named in the README [default: \"The <project name> Authors\"]"
    )]
    pub owner: Option<String>,
    /// License of the project.
    #[arg(long, value_enum, default_value_t = License::Apache2)]
    pub license: License,
    /// Build the project against the webop source in DIR (written to the machine-local
    /// .cargo/config.toml) [default: the source this webop was built from, if it still exists].
    #[arg(long, value_name = "DIR")]
    pub webop_path: Option<PathBuf>,
    /// kubebuilder's multigroup layout: each API group's modules under `api/src/<group>/` and
    /// its controllers under `src/controller/<group>/`, so two groups may have kinds of the same
    /// name (`webop edit --multigroup` moves an existing project).
    #[arg(long)]
    pub multigroup: bool,
    /// Optional plugins, comma-separated: `autoupdate` (.github/workflows/auto_update.yml: `webop
    /// upgrade` once a week, its result proposed in an issue). Recorded in PROJECT. The helm and
    /// grafana plugins are added after init, with `webop edit --plugins`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "PLUGIN")]
    pub plugins: Vec<InitPlugin>,
    /// Scaffold into a non-empty directory, overwriting existing files.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// An optional plugin of `webop init --plugins`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InitPlugin {
    /// .github/workflows/auto_update.yml: a weekly `webop upgrade`, proposed in an issue
    /// (kubebuilder's autoupdate/v1-alpha).
    Autoupdate,
}

/// The license of a generated project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum License {
    /// Apache License 2.0.
    Apache2,
    /// No license.
    None,
}

pub(super) fn run(args: InitArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = match &args.project_name {
        Some(name) => name.clone(),
        None => directory_name(cwd)?,
    };
    validate::project_name(&name)?;
    validate::domain(&args.domain)?;
    if let Some(repo) = &args.repo {
        validate::repo(repo)?;
    }
    if cwd.join(crate::project::FILE_NAME).exists() {
        bail!(
            "{} is already a webop project (it has a PROJECT file): init would forget its APIs; \
             use `webop create api` to extend it",
            cwd.display()
        );
    }
    if !args.force {
        refuse_non_empty(cwd)?;
    }
    let webop_path = match &args.webop_path {
        Some(dir) => Some(webop_source(&cwd.join(dir))?),
        None => built_from(),
    };
    let init = InitOptions {
        owner: args
            .owner
            .clone()
            .unwrap_or_else(|| format!("The {name} Authors")),
        license: match args.license {
            License::Apache2 => "apache2",
            License::None => "none",
        }
        .to_owned(),
        webop_path,
    };
    let mut project = Project {
        multigroup: args.multigroup,
        ..Project::new(&name, &args.domain, args.repo.as_deref())
    };
    for plugin in &args.plugins {
        match plugin {
            InitPlugin::Autoupdate => project.plugins.autoupdate = Some(Default::default()),
        }
    }
    let request = Request {
        root: cwd,
        before: None,
        after: &project,
        command: Command::Init(&init),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run {
        writeln!(
            out,
            "Next: define an API with `webop create api --group <group> --version v1 --kind <Kind>`"
        )?;
    }
    Ok(())
}

/// The name of `dir`, for the default project name.
fn directory_name(dir: &Path) -> anyhow::Result<String> {
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))?;
    dir.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned)
        .with_context(|| format!("{} has no usable name; pass --project-name", dir.display()))
}

/// `init` scaffolds into an empty directory; hidden files and a README do not count.
fn refuse_non_empty(dir: &Path) -> anyhow::Result<()> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.') && !name.to_ascii_uppercase().starts_with("README"))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    found.sort();
    let more = if found.len() > 5 { ", ..." } else { "" };
    found.truncate(5);
    bail!(
        "{} is not empty (it has {}{more}): webop init scaffolds into an empty directory \
         (hidden files and a README aside); pass --force to scaffold here anyway, overwriting \
         files webop writes",
        dir.display(),
        found.join(", ")
    )
}

/// `--webop-path`: the root of a webop source (the workspace whose `webop/` is the runtime
/// facade), as an absolute path.
fn webop_source(dir: &Path) -> anyhow::Result<String> {
    let manifest = std::fs::read_to_string(dir.join("webop/Cargo.toml")).unwrap_or_default();
    if !manifest.lines().any(|l| l.trim() == "name = \"webop\"") {
        bail!(validate::Invalid {
            what: "webop path",
            value: dir.display().to_string(),
            rule: "it must be the root of webop's source: the directory whose webop/Cargo.toml \
                   is the `webop` package"
                .into(),
        });
    }
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))?;
    Ok(dir.to_string_lossy().into_owned())
}

/// The webop source this binary was built from, if it is still there.
fn built_from() -> Option<String> {
    webop_source(Path::new(env!("CARGO_MANIFEST_DIR"))).ok()
}
