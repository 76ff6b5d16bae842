//! `webop delete api`: take a kind out of a project again.

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::project::Project;
use crate::scaffolds::{Command, Request};

/// Remove a kind: its API type, controller, tests, roles and sample, the lines `create api`
/// added for it, its PROJECT entry, and its CRD once no version of it is left.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # What would go, without removing anything\n  \
    webop delete api --group app --version v1 --kind WebApp --dry-run\n\n  \
    webop delete api --group app --version v1 --kind WebApp")]
pub struct DeleteApiArgs {
    /// API group, without the domain, as given to `create api`.
    #[arg(long, allow_hyphen_values = true)]
    pub group: String,
    /// API version.
    #[arg(long, allow_hyphen_values = true)]
    pub version: String,
    /// Kind.
    #[arg(long, allow_hyphen_values = true)]
    pub kind: String,
    /// Delete files you edited too.
    #[arg(long)]
    pub force: bool,
    /// Print what would be deleted or changed, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: DeleteApiArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    let (after, resource) = before.without_resource(&args.group, &args.version, &args.kind)?;
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::DeleteApi(&resource),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run {
        writeln!(
            out,
            "Next: run `make manifests` to regenerate config/rbac/role.yaml without {}'s rules",
            resource.kind
        )?;
    }
    Ok(())
}
