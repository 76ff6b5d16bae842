//! `webop edit`: change a project-wide setting after `init`, in every file it touches.

use std::io::Write;
use std::path::Path;

use anyhow::bail;
use clap::Args;

use crate::project::Project;
use crate::scaffold::{Command, Request};

/// Change a project-wide setting (like `kubebuilder edit`): every file it touches is rewritten,
/// with no manual next steps.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # The manager watches, and is granted, only the namespace it runs in\n  \
    webop edit --namespaced --dry-run\n  \
    webop edit --namespaced\n\n  \
    # Back to a cluster-scoped manager\n  \
    webop edit --namespaced=false")]
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
    /// Overwrite files you edited.
    #[arg(long)]
    pub force: bool,
    /// Print what would be changed, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: EditArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    let Some(namespaced) = args.namespaced else {
        bail!("nothing to edit: pass --namespaced or --namespaced=false (see `webop edit --help`)");
    };
    let after = before.with_namespaced_manager(namespaced)?;
    // The manager's role is regenerated from the code, as `webop manifests` writes it; without
    // rules (no controller yet) its template is rewritten instead.
    let sources = super::manifests::source_dirs(&root)?;
    let generated: Vec<(String, String)> = super::manifests::manager_role(&sources, &after)?
        .into_iter()
        .collect();
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::Edit(&generated),
        force: args.force,
    };
    if before == after {
        let scope = if namespaced { "namespace" } else { "cluster" };
        writeln!(out, "The manager is already {scope}-scoped.")?;
    }
    super::scaffold(&request, args.dry_run, out)
}
