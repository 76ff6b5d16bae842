//! `webop create api`: scaffold a kind (its API type, controller, roles, sample) into a project.

use std::io::Write;
use std::path::Path;

use anyhow::bail;
use clap::{ArgAction, Args};

use crate::project::validate::{self, Invalid};
use crate::project::{Api, DeployImageOptions, Project, Resource};
use crate::scaffold::Request;

/// Scaffold a Kubernetes API: its type in `api/`, its controller, roles and sample.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # A kind whose controller runs an image as a Deployment and a Service (kubebuilder's deploy-image)\n  \
    webop create api --group app --version v1 --kind WebApp --image nginx:1.25 --port 80\n\n  \
    # A kind with an empty reconcile to fill in\n  \
    webop create api --group batch --version v1 --kind CronJob\n\n  \
    # A cluster-scoped kind without a controller\n  \
    webop create api --group infra --version v1alpha1 --kind Cluster --namespaced=false --controller=false")]
pub struct CreateApiArgs {
    /// API group, without the domain (`app` → `app.<domain>`).
    #[arg(long, allow_hyphen_values = true)]
    pub group: String,
    /// API version: v1, v1beta1, v2alpha1, ...
    #[arg(long, allow_hyphen_values = true)]
    pub version: String,
    /// Kind, in PascalCase (WebApp).
    #[arg(long, allow_hyphen_values = true)]
    pub kind: String,
    /// Plural resource name [default: derived from the kind, as kubebuilder does].
    #[arg(long, allow_hyphen_values = true)]
    pub plural: Option<String>,
    /// Whether the kind is namespaced (false: cluster-scoped).
    #[arg(long, value_name = "BOOL", action = ArgAction::Set, default_value_t = true,
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub namespaced: bool,
    /// Scaffold the API type (false: only a controller, for a kind defined elsewhere).
    #[arg(long, value_name = "BOOL", action = ArgAction::Set, default_value_t = true,
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub resource: bool,
    /// Scaffold a controller for the kind.
    #[arg(long, value_name = "BOOL", action = ArgAction::Set, default_value_t = true,
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub controller: bool,
    /// Container image the controller runs for each object (a Deployment and a Service); without
    /// it the reconcile is left empty.
    #[arg(long, allow_hyphen_values = true)]
    pub image: Option<String>,
    /// Port the container listens on [default: 80].
    #[arg(long, requires = "image", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: Option<u16>,
    /// Run the container as this (non-root) user ID, with the restricted security context.
    #[arg(long, requires = "image", value_parser = clap::value_parser!(u32).range(1..=2147483647))]
    pub run_as_user: Option<u32>,
    /// Scaffold the kind again if it exists, and overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(args: CreateApiArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    let resource = check(&args, &before)?;
    let image = args.image.as_ref().map(|image| DeployImageOptions {
        container_port: args.port.map(|p| p.to_string()),
        image: image.clone(),
        run_as_user: args.run_as_user.map(|u| u.to_string()),
    });
    let mut after = before.clone();
    after.upsert_resource(resource.clone(), image);
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        init: None,
        new_resource: Some(&resource),
        generated: &[],
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run && resource.api.is_some() {
        writeln!(
            out,
            "Next: edit api/src/{}/{}_types.rs, then run `make manifests`",
            resource.version,
            resource.kind.to_ascii_lowercase()
        )?;
        let versions: Vec<&str> = after
            .resources
            .iter()
            .filter(|r| r.api.is_some() && r.group == resource.group && r.kind == resource.kind)
            .map(|r| r.version.as_str())
            .collect();
        if versions.len() > 1 {
            // controller-gen refuses a CRD of several versions with no storage version.
            writeln!(
                out,
                "{} now has versions {}: mark the one the API server stores with #[storage_version] (kubebuilder's +kubebuilder:storageversion)",
                resource.kind,
                versions.join(", ")
            )?;
        }
    }
    Ok(())
}

/// Checks every input against the rules and the project, and returns the resource to record.
fn check(args: &CreateApiArgs, project: &Project) -> anyhow::Result<Resource> {
    validate::kind(&args.kind)?;
    validate::group(&args.group)?;
    validate::group_without_domain(&args.group, &project.domain)?;
    validate::qualified_group(&args.group, &project.domain)?;
    validate::version(&args.version)?;
    match &args.plural {
        Some(plural) => validate::plural(plural)?,
        None => validate::derived_plural(&args.kind, &crate::names::plural(&args.kind))?,
    }
    if let Some(image) = &args.image {
        validate::image(image)?;
    }
    if !args.resource && !args.controller {
        bail!("nothing to scaffold: --resource=false and --controller=false");
    }
    if args.image.is_some() && !(args.resource && args.controller && args.namespaced) {
        bail!(
            "--image scaffolds a controller that runs the image in the namespace of each {}: it \
             needs --resource=true, --controller=true and --namespaced=true",
            args.kind
        );
    }

    let others: Vec<&Resource> = project
        .resources
        .iter()
        .filter(|r| !(r.group == args.group && r.version == args.version && r.kind == args.kind))
        .collect();
    if project
        .resource(&args.group, &args.version, &args.kind)
        .is_some()
        && !args.force
    {
        bail!(Invalid {
            what: "kind",
            value: args.kind.clone(),
            rule: format!(
                "the project already has {} in {}.{}/{}; pass --force to scaffold it again",
                args.kind, args.group, project.domain, args.version
            ),
        });
    }
    if let Some(other) = others
        .iter()
        .find(|r| r.version == args.version && r.kind.eq_ignore_ascii_case(&args.kind))
    {
        bail!(Invalid {
            what: "kind",
            value: args.kind.clone(),
            rule: format!(
                "api/src/{}/ already has {} (of group {}) in {}_types.rs; one version module \
                 cannot hold two kinds of the same (lower-cased) name",
                args.version,
                other.kind,
                other.qualified_group(),
                other.kind.to_ascii_lowercase()
            ),
        });
    }
    let same_version: Vec<&str> = others
        .iter()
        .filter(|r| r.version == args.version)
        .map(|r| r.kind.as_str())
        .collect();
    validate::kind_alongside(&args.kind, &args.version, &same_version)?;
    if args.controller
        && let Some(other) = others
            .iter()
            .find(|r| r.controller && r.kind.eq_ignore_ascii_case(&args.kind))
    {
        bail!(
            "{} already has a controller (created with {}.{}/{}): a kind has one controller; \
             pass --controller=false",
            args.kind,
            other.group,
            other.domain,
            other.version
        );
    }

    Ok(Resource {
        api: args.resource.then(|| Api {
            crd_version: "v1".into(),
            namespaced: args.namespaced,
        }),
        controller: args.controller,
        domain: project.domain.clone(),
        group: args.group.clone(),
        kind: args.kind.clone(),
        path: args
            .resource
            .then(|| format!("{}::{}", project.api_crate_name(), args.version)),
        plural: args.plural.clone(),
        version: args.version.clone(),
    })
}
