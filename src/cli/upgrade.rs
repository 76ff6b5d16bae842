//! `webop upgrade`: move the project to this webop's templates.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::project::Project;
use crate::scaffold::{self, RealFs, Templates};
use crate::upgrade::{self, Options};

/// Move the project to this webop's templates: webop's files re-rendered, yours merged with the
/// template changes (three-way, from what the older webop rendered: its templates, named in
/// .webop-scaffold/lock.json, rendered again).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # See what would change, as a unified diff\n  \
    webop upgrade --dry-run\n  \
    webop upgrade\n\n  \
    # A project scaffolded before webop kept a scaffold lock\n  \
    webop upgrade --adopt")]
pub struct UpgradeArgs {
    /// Re-render files marked DO NOT EDIT that you edited (your edits are lost).
    #[arg(long)]
    pub force: bool,
    /// Start the scaffold lock of a project that has none: re-render the DO NOT EDIT files, keep
    /// your files as they are.
    #[arg(long)]
    pub adopt: bool,
    /// Print the unified diff of the upgrade, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The templates directory of the webop that scaffolded the project, when this webop does
    /// not carry its templates (a development build's: its checkout's templates/).
    #[arg(long, value_name = "DIR")]
    pub base_templates: Option<PathBuf>,
}

pub(super) fn run(args: UpgradeArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, project) = Project::find(cwd)?;
    let templates = Templates::load()?;
    let options = Options {
        force: args.force,
        adopt: args.adopt,
        base_templates: args.base_templates.map(|dir| cwd.join(dir)),
    };
    let upgrade = upgrade::plan(&RealFs, &templates, &root, &project, options)?;
    if args.dry_run {
        out.write_all(upgrade.diff(&RealFs, &root).as_bytes())?;
    } else {
        scaffold::apply(&RealFs, &root, &upgrade.plan)?;
    }
    out.write_all(upgrade.report().as_bytes())?;
    if args.dry_run {
        writeln!(out, "dry run: no file was written")?;
    } else {
        if !upgrade.summary.conflicted.is_empty() {
            writeln!(
                out,
                "Next: resolve the conflicts (the lines between <<<<<<< yours and >>>>>>> webop {}), then run `make manifests`",
                upgrade::VERSION
            )?;
        } else {
            writeln!(
                out,
                "Next: run `make manifests` (the CRDs and config/rbac/role.yaml come from the code)"
            )?;
        }
    }
    Ok(())
}
