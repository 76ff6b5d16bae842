//! `webop edit`: change a project-wide setting after `init`, in every file it touches.

use std::io::Write;
use std::path::Path;

use std::collections::BTreeMap;

use anyhow::{Context as _, bail};
use clap::Args;

use super::init::License;
use crate::project::Project;
use crate::scaffold::{RealFs, Templates};
use crate::scaffolds::edit::{Licensed, license, relayout, relicense};
use crate::scaffolds::{Command, Request};

/// Change a project-wide setting (like `kubebuilder edit`): every file it touches is rewritten,
/// with no manual next steps.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # The manager watches, and is granted, only the namespace it runs in\n  \
    webop edit --namespaced --dry-run\n  \
    webop edit --namespaced\n\n  \
    # Back to a cluster-scoped manager\n  \
    webop edit --namespaced=false\n\n  \
    # The copyright holder of the README's license notice; or no license at all\n  \
    webop edit --owner \"Example Corp\"\n  \
    webop edit --license none\n\n  \
    # A Helm chart (dist/chart/) and Grafana dashboards (grafana/)\n  \
    webop edit --plugins helm,grafana --dry-run\n\n  \
    # A weekly GitHub Actions workflow that runs `webop upgrade` and proposes the result\n  \
    webop edit --plugins autoupdate")]
pub struct EditArgs {
    /// Namespace-scoped manager: a Role and RoleBinding instead of the ClusterRole and
    /// ClusterRoleBinding, and WATCH_NAMESPACE set to the pod's namespace in config/manager
    /// (`--namespaced=false` goes back).
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub namespaced: Option<bool>,
    /// License of the project: adds or removes the license lines of the Cargo manifests and the
    /// README's License section, as `init --license` writes them.
    #[arg(long, value_enum)]
    pub license: Option<License>,
    /// Copyright holder named in the README's Apache-2.0 notice.
    #[arg(long)]
    pub owner: Option<String>,
    /// kubebuilder's multigroup layout: moves each group's API modules to
    /// `api/src/<group>/<version>/` and its controllers to `src/controller/<group>/`, and
    /// rewrites what names them (`--multigroup=false` goes back, with one group).
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub multigroup: Option<bool>,
    /// Optional plugins to add, comma-separated: `helm` (a Helm chart in dist/chart/ that installs
    /// what config/default builds, kept in step by every later command), `grafana` (dashboards
    /// of the manager's metrics in grafana/) and `autoupdate` (.github/workflows/auto_update.yml:
    /// `webop upgrade` once a week, its result proposed in an issue). Recorded in PROJECT.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "PLUGIN")]
    pub plugins: Vec<Plugin>,
    /// Overwrite files you edited.
    #[arg(long)]
    pub force: bool,
    /// Print what would be changed, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: EditArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    if args.namespaced.is_none()
        && args.license.is_none()
        && args.owner.is_none()
        && args.multigroup.is_none()
        && args.plugins.is_empty()
    {
        bail!(
            "nothing to edit: pass --multigroup[=false], --namespaced[=false], --license, \
             --owner or --plugins (see `webop edit --help`)"
        );
    }
    let namespaced = args.namespaced.unwrap_or(before.namespaced);
    let multigroup = args.multigroup.unwrap_or(before.multigroup);
    // The layout's rules are checked only when the layout changes: a single-group project
    // whose kinds span groups (imported ones) may still change its other settings.
    let relaid = if multigroup == before.multigroup {
        before.clone()
    } else {
        before.with_multigroup(multigroup)?
    };
    let after = with_plugins(relaid.with_namespaced_manager(namespaced)?, &args.plugins);
    let rescope = after.namespaced != before.namespaced;
    let mut files: Vec<(String, String)> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    if after.multigroup != before.multigroup {
        let templates = Templates::load()?;
        let moved = relayout::relayout(&templates, &before, &after, &read_sources(&root)?)?;
        for (from, to) in &moved.moves {
            writeln!(out, "moved {from} -> {to}")?;
        }
        files.extend(moved.writes);
        removed.extend(moved.removes);
    }
    if rescope {
        // The manager's role is regenerated from the code, as `webop manifests` writes it;
        // without rules (no controller yet) its template is rewritten instead.
        let sources = super::manifests::source_dirs(&root)?;
        files.extend(super::manifests::manager_role(&sources, &after)?);
    }
    if args.license.is_some() || args.owner.is_some() {
        let licensed = current_license(&root, &before)?;
        let wanted = wanted_license(&args, &before, &licensed)?;
        let templates = Templates::load()?;
        files.extend(relicense(
            &RealFs, &templates, &root, &before, &licensed, &wanted, args.force,
        )?);
    }
    if args.multigroup.is_some() && after.multigroup == before.multigroup {
        let layout = if multigroup {
            "multigroup"
        } else {
            "single-group"
        };
        writeln!(out, "The project is already {layout}.")?;
    }
    if args.namespaced.is_some() && !rescope {
        let scope = if namespaced { "namespace" } else { "cluster" };
        writeln!(out, "The manager is already {scope}-scoped.")?;
    }
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::Edit {
            rescope,
            files: &files,
            removed: &removed,
            plugins: !args.plugins.is_empty(),
        },
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)
}

/// An optional plugin of `webop edit --plugins`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Plugin {
    /// dist/chart/: a Helm chart of what config/default builds (kubebuilder's helm/v2-alpha).
    Helm,
    /// grafana/: dashboards of the manager's metrics (kubebuilder's grafana/v1-alpha).
    Grafana,
    /// .github/workflows/auto_update.yml: a weekly `webop upgrade`, proposed in an issue
    /// (kubebuilder's autoupdate/v1-alpha).
    Autoupdate,
}

/// `project` with `plugins` recorded in its `plugins:` section (once recorded, every command
/// keeps their files in step).
fn with_plugins(mut project: Project, plugins: &[Plugin]) -> Project {
    for plugin in plugins {
        let slot = match plugin {
            Plugin::Helm => &mut project.plugins.helm,
            Plugin::Grafana => &mut project.plugins.grafana,
            Plugin::Autoupdate => &mut project.plugins.autoupdate,
        };
        slot.get_or_insert_with(Default::default);
    }
    project
}

/// The license the project's files declare: Apache-2.0 when the root Cargo.toml has the line
/// `init --license apache2` writes, with the owner of the README's notice (init's default
/// without one).
fn current_license(root: &Path, project: &Project) -> anyhow::Result<Licensed> {
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_default();
    if !license::is_apache2(&read("Cargo.toml")) {
        return Ok(None);
    }
    let readme = read("README.md");
    Ok(Some(
        license::owner(&readme).map_or_else(|| default_owner(project), str::to_owned),
    ))
}

/// `init`'s owner when `--owner` is not given.
fn default_owner(project: &Project) -> String {
    format!("The {} Authors", project.project_name)
}

/// The license `--license` and `--owner` ask for, from `current`.
fn wanted_license(
    args: &EditArgs,
    project: &Project,
    current: &Licensed,
) -> anyhow::Result<Licensed> {
    let apache2 = match args.license {
        Some(license) => license == License::Apache2,
        None => current.is_some(),
    };
    match (&args.owner, apache2) {
        (Some(owner), false) => bail!(
            "--owner {owner:?}: the owner is named only in the Apache-2.0 notice, and {}; pass \
             --license apache2 with it",
            if args.license.is_some() {
                "--license none writes none"
            } else {
                "the project has no license"
            }
        ),
        (Some(owner), true) if owner.trim().is_empty() || owner.contains('\n') => {
            bail!("--owner {owner:?}: the copyright holder must be a non-empty single line")
        }
        (Some(owner), true) => Ok(Some(owner.clone())),
        (None, true) => Ok(Some(
            current.clone().unwrap_or_else(|| default_owner(project)),
        )),
        (None, false) => Ok(None),
    }
}

/// The files `edit --multigroup` reads (`relayout::reads`), by relative path; `target/` and
/// hidden directories are not the project's sources.
fn read_sources(root: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) -> anyhow::Result<()> {
        for entry in
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?
        {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if name.starts_with('.') || (dir == root && name == "target") {
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if relayout::reads(&relative) {
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {relative}"))?;
                out.insert(relative, text);
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out)?;
    Ok(out)
}
