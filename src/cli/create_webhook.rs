//! `webop create webhook`: scaffold a kind's defaulting, validating or conversion webhook.

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::project::{NewWebhook, Project};
use crate::scaffolds::{Command, CreateWebhook, Request};

/// Scaffold webhooks for a kind: a defaulting (mutating) and a validating admission webhook, or
/// a conversion webhook with this version as the hub.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # Defaulting and validating webhooks for WebApp v1\n  \
    webop create webhook --group app --version v1 --kind WebApp --defaulting --programmatic-validation\n\n  \
    # A Pod's defaulting webhook (Kubernetes' own kinds need no create api)\n  \
    webop create webhook --group core --version v1 --kind Pod --defaulting\n\n  \
    # cert-manager's Issuer, an external kind: its types from its CRD, then the webhook\n  \
    webop import crd --external cert-manager.io_issuers.yaml\n  \
    webop create webhook --group cert-manager --version v1 --kind Issuer --defaulting\n\n  \
    # Conversion between WebApp v1 (the hub, stored) and v2\n  \
    webop create api --group app --version v2 --kind WebApp --controller=false\n  \
    webop create webhook --group app --version v1 --kind WebApp --conversion --spoke v2")]
pub struct CreateWebhookArgs {
    /// API group of the kind, without the domain.
    #[arg(long, allow_hyphen_values = true)]
    pub group: String,
    /// API version of the kind (the hub, with --conversion).
    #[arg(long, allow_hyphen_values = true)]
    pub version: String,
    /// Kind.
    #[arg(long, allow_hyphen_values = true)]
    pub kind: String,
    /// Scaffold a defaulting (mutating) webhook.
    #[arg(long)]
    pub defaulting: bool,
    /// Scaffold a validating webhook.
    #[arg(long)]
    pub programmatic_validation: bool,
    /// Serve the defaulting webhook at this path instead of /mutate-<group>-<version>-<kind>.
    #[arg(long, value_name = "PATH")]
    pub defaulting_path: Option<String>,
    /// Serve the validating webhook at this path instead of /validate-<group>-<version>-<kind>.
    #[arg(long, value_name = "PATH")]
    pub validation_path: Option<String>,
    /// Scaffold a conversion webhook with this version as the hub.
    #[arg(long)]
    pub conversion: bool,
    /// The versions that convert to and from the hub (with --conversion): --spoke v2,v3.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub spoke: Vec<String>,
    /// An external kind's type named by its Rust module (cert_manager_types::v1), for a kind
    /// the project has no entry of (one `import crd --external` wrote needs none).
    #[arg(long, value_name = "PATH")]
    pub external_api_path: Option<String>,
    /// The external kind's domain (io for cert-manager.io) [default: the project's].
    #[arg(long, value_name = "DOMAIN", requires = "external_api_path")]
    pub external_api_domain: Option<String>,
    /// Scaffold a webhook type the kind has again, and overwrite its files.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: CreateWebhookArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    let new = NewWebhook {
        group: args.group,
        version: args.version,
        kind: args.kind,
        defaulting: args.defaulting,
        validation: args.programmatic_validation,
        conversion: args.conversion,
        defaulting_path: args.defaulting_path,
        validation_path: args.validation_path,
        spokes: args.spoke.iter().map(|s| s.trim().to_owned()).collect(),
        external_path: args.external_api_path,
        external_domain: args.external_api_domain,
        force: args.force,
    };
    let (after, resource) = before.with_webhook(&new)?;
    let had = before
        .resource(&new.group, &new.version, &new.kind)
        .and_then(|r| r.webhooks.as_ref());
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::CreateWebhook(CreateWebhook {
            resource: &resource,
            before: had,
        }),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run {
        let kind_lower = resource.kind.to_ascii_lowercase();
        if new.defaulting || new.validation {
            writeln!(
                out,
                "Next: implement the webhooks in {}, then run `make manifests`",
                crate::project::layout::place(
                    &format!("src/webhook/{}/{kind_lower}_webhook.rs", resource.version),
                    &resource.group,
                    after.multigroup
                )
            )?;
        }
        if new.conversion {
            writeln!(
                out,
                "Next: check the conversions in {}, then run `make manifests`",
                crate::project::layout::place(
                    &format!("api/src/*/{kind_lower}_conversion.rs"),
                    &resource.group,
                    after.multigroup
                )
            )?;
        }
    }
    Ok(())
}
