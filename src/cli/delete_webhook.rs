//! `webop delete webhook`: take a kind's webhooks out of a project again.

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::project::{Project, WebhookTypes};
use crate::scaffolds::{Command, DeleteWebhook, Request};

/// Remove a kind's webhooks (all of them, or the types given): the files and lines `create
/// webhook` added for them, and its PROJECT entry; with the project's last webhook, the webhook
/// server's wiring too.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # What would go, without removing anything\n  \
    webop delete webhook --group app --version v1 --kind WebApp --dry-run\n\n  \
    # Only the defaulting webhook; the others stay\n  \
    webop delete webhook --group app --version v1 --kind WebApp --defaulting")]
pub struct DeleteWebhookArgs {
    /// API group, without the domain, as given to `create webhook`.
    #[arg(long, allow_hyphen_values = true)]
    pub group: String,
    /// API version (the hub's, for the conversion webhook).
    #[arg(long, allow_hyphen_values = true)]
    pub version: String,
    /// Kind.
    #[arg(long, allow_hyphen_values = true)]
    pub kind: String,
    /// The defaulting (mutating) webhook.
    #[arg(long)]
    pub defaulting: bool,
    /// The validating webhook.
    #[arg(long)]
    pub programmatic_validation: bool,
    /// The conversion webhook (of the hub), with its spokes' conversions.
    #[arg(long)]
    pub conversion: bool,
    /// Delete files you edited too.
    #[arg(long)]
    pub force: bool,
    /// Print what would be deleted or changed, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: DeleteWebhookArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    let which = WebhookTypes {
        defaulting: args.defaulting,
        validation: args.programmatic_validation,
        conversion: args.conversion,
    };
    let (after, resource) =
        before.without_webhook(&args.group, &args.version, &args.kind, which)?;
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::DeleteWebhook(DeleteWebhook {
            resource: &resource,
        }),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run {
        writeln!(
            out,
            "Next: run `make manifests` to regenerate config/webhook/manifests.yaml"
        )?;
    }
    Ok(())
}
