//! `webop create api`: scaffold a kind (its API type, controller, roles, sample) into a project.

use std::io::Write;
use std::path::Path;

use clap::{ArgAction, Args};

use crate::project::{DeployImageOptions, NewResource, Project};
use crate::scaffolds::{Command, Request};

/// Scaffold a Kubernetes API: its type in `api/`, its controller, roles and sample.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # A kind whose controller runs an image as a Deployment and a Service (kubebuilder's deploy-image)\n  \
    webop create api --group app --version v1 --kind WebApp --image example/webapp:1.0 --port 8080\n\n  \
    # kubebuilder's deploy-image kind: spec size, the image from the options\n  \
    webop create api --group app --version v1 --kind Cache --image memcached:1.6 --kubebuilder-spec\n\n  \
    # The container's command, its arguments separated by commas\n  \
    webop create api --group app --version v1 --kind Nap --image busybox --container-command sleep,60\n\n  \
    # A kind with an empty reconcile to fill in\n  \
    webop create api --group batch --version v1 --kind CronJob\n\n  \
    # A cluster-scoped kind without a controller\n  \
    webop create api --group infra --version v1 --kind Cluster --namespaced=false --controller=false\n\n  \
    # A second controller of an existing kind (kubebuilder's named controllers)\n  \
    webop create api --group app --version v1 --kind WebApp --resource=false --controller-name audit\n\n  \
    # A controller for Kubernetes' own Deployments (k8s-openapi's type)\n  \
    webop create api --group apps --version v1 --kind Deployment --resource=false")]
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
    /// Name the controller (kubebuilder's --controller-name): a DNS-1035 label, its module
    /// `src/controller/<name>_controller.rs`. With --resource=false on a kind the project has,
    /// adds a controller beside the kind's others.
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub controller_name: Option<String>,
    /// Container image the controller runs for each object (a Deployment and a Service); without
    /// it the reconcile is left empty.
    #[arg(long, allow_hyphen_values = true)]
    pub image: Option<String>,
    /// Port the container listens on [default: 80] (kubebuilder's --image-container-port).
    #[arg(long, visible_alias = "image-container-port", requires = "image",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub port: Option<u16>,
    /// Run the container as this (non-root) user ID, with the restricted security context.
    #[arg(long, requires = "image", value_parser = clap::value_parser!(u32).range(1..=2147483647))]
    pub run_as_user: Option<u32>,
    /// The container's command, its arguments separated by commas
    /// (`memcached,--memory-limit=64,-o,modern,-v`) [default: the image's entrypoint]
    /// (kubebuilder's --image-container-command).
    #[arg(
        long,
        visible_alias = "image-container-command",
        value_name = "ARGS",
        requires = "image",
        allow_hyphen_values = true
    )]
    pub container_command: Option<String>,
    /// Scaffold the kind as kubebuilder's deploy-image plugin does: spec `size` (and
    /// `containerPort` with --port), the image from these options (the manager's `<KIND>_IMAGE`
    /// overrides it), a Deployment alone; for a kind moved from kubebuilder.
    #[arg(long, requires = "image")]
    pub kubebuilder_spec: bool,
    /// The Rust module of an external kind's type (a crate the project depends on), for a
    /// controller with --resource=false (kubebuilder's --external-api-path).
    #[arg(long, value_name = "PATH")]
    pub external_api_path: Option<String>,
    /// The domain of the external kind's group (`cert-manager` + `io`) [default: the
    /// project's].
    #[arg(long, value_name = "DOMAIN", requires = "external_api_path")]
    pub external_api_domain: Option<String>,
    /// Scaffold the kind again if it exists, and overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// The kind the arguments ask for, checked by `Project::with_resource`.
fn new_resource(args: &CreateApiArgs) -> NewResource {
    NewResource {
        group: args.group.clone(),
        version: args.version.clone(),
        kind: args.kind.clone(),
        plural: args.plural.clone(),
        namespaced: args.namespaced,
        resource: args.resource,
        controller: args.controller,
        controller_name: args.controller_name.clone(),
        image: args.image.as_ref().map(|image| DeployImageOptions {
            container_command: args.container_command.clone(),
            container_port: args.port.map(|p| p.to_string()),
            image: image.clone(),
            kubebuilder_spec: args.kubebuilder_spec,
            run_as_user: args.run_as_user.map(|u| u.to_string()),
        }),
        force: args.force,
        domain: args.external_api_domain.clone(),
        any_version: false,
        external: false,
        external_path: args.external_api_path.clone(),
    }
}

pub(super) fn run(args: CreateApiArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let (root, before) = Project::find(cwd)?;
    // `--resource=false --controller-name` beside a kind's other controllers: its types are
    // the user's already.
    let another_controller = !args.resource
        && before
            .resource(&args.group, &args.version, &args.kind)
            .is_some();
    let (after, resource) = before.with_resource(&new_resource(&args))?;
    // A namespace-scoped manager (`webop edit --namespaced`) cannot take a cluster-scoped kind.
    after.with_namespaced_manager(after.namespaced)?;
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::CreateApi(&resource),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if !args.dry_run && resource.api.is_some() && !resource.foreign() && !another_controller {
        writeln!(
            out,
            "Next: edit {}, then run `make manifests`",
            crate::project::layout::place(
                &format!(
                    "api/src/{}/{}_types.rs",
                    resource.version,
                    resource.kind.to_ascii_lowercase()
                ),
                &resource.group,
                after.multigroup
            )
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
