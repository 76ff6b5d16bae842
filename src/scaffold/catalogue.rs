//! Which command renders which template: the one table that ties `templates/` to the commands.
//!
//! - `Scope::Project` files are rendered once per project, `Scope::Version` once per API version,
//!   `Scope::Resource` once per kind of the PROJECT file.
//! - Tool-owned templates (their first line is the `DO NOT EDIT` header) are re-rendered by every
//!   command from the PROJECT file. User-owned ones are written by the command that introduces
//!   them: `init` the project files, `create api` the files of its kind.
//! - `Needs` says when an entry applies; `--image` entries replace the plain entries of the same
//!   output path.

/// How often a template is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Project,
    /// Once per API group, in a multigroup project only.
    Group,
    Version,
    /// Once per version with a kind whose webhook module exists.
    WebhookVersion,
    Resource,
}

/// When an entry applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Always,
    /// Only when `init` knows where the webop source is (`.cargo/config.toml`).
    WebopPath,
    /// The kind has its API type in this project.
    Api(Flavour),
    /// The kind has a controller in this project.
    Controller(Flavour),
    /// Some kind of the project has a webhook (`create webhook`).
    Webhooks,
    /// The kind is the hub of a conversion webhook.
    Conversion,
}

/// One template and when it is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The template's path in `templates/`.
    pub template: &'static str,
    pub scope: Scope,
    pub needs: Needs,
}

/// Lines `create api` inserts above a `+webop:scaffold:<marker>` line of a user-owned file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insertion {
    /// The file, relative to the project root (a one-line template: `api/src/{{ version }}/mod.rs`).
    pub file: &'static str,
    /// The marker name: the line is `# +webop:scaffold:<marker>` (`//` in Rust files).
    pub marker: &'static str,
    /// One-line templates, rendered with the kind's context.
    pub lines: &'static [&'static str],
    pub needs: Needs,
    /// Where the lines go among those above the marker.
    pub order: Order,
    /// Where the file is in each layout.
    pub place: Place,
}

/// Where an insertion's file is in the single-group and the multigroup layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A file of the project, the same in both layouts.
    Project,
    /// A file of the kind's group, moved by the multigroup layout (`layout::multigroup_path`).
    Group,
    /// The group's own module, which only the multigroup layout has.
    GroupModule,
}

const fn project(template: &'static str) -> Entry {
    Entry {
        template,
        scope: Scope::Project,
        needs: Needs::Always,
    }
}

const fn webhooks(template: &'static str) -> Entry {
    Entry {
        template,
        scope: Scope::Project,
        needs: Needs::Webhooks,
    }
}

const fn resource(template: &'static str, needs: Needs) -> Entry {
    Entry {
        template,
        scope: Scope::Resource,
        needs,
    }
}

pub use super::flavour::Flavour;
use super::markers::Order;
use Flavour::{Any, DeployImage, KubebuilderImage, Plain, PlainOrForeign};
use Needs::{Api, Controller};

/// Every template, in no particular order (plans are sorted by path).
pub const ENTRIES: &[Entry] = &[
    // `init`: the workspace, its build and the kustomize tree.
    project("Cargo.toml.tera"),
    project("Makefile"),
    project("Dockerfile"),
    project("README.md"),
    project("PROJECT"),
    project(".gitignore.tera"),
    project(".dockerignore"),
    Entry {
        template: ".cargo/config.toml",
        scope: Scope::Project,
        needs: Needs::WebopPath,
    },
    project("api/Cargo.toml.tera"),
    // User-owned, so that shared types have a home (`pub mod common;`): `create api` inserts
    // each version's module and each kind's CRD version at its markers.
    project("api/src/lib.rs"),
    project("api/examples/crdgen.rs"),
    project("src/main.rs"),
    project("src/lib.rs"),
    project("src/controller/mod.rs"),
    project("config/crd/kustomization.yaml"),
    project("config/crd/kustomizeconfig.yaml"),
    project("config/default/kustomization.yaml"),
    project("config/default/cert_metrics_manager_patch.yaml"),
    project("config/default/manager_metrics_patch.yaml"),
    project("config/default/metrics_service.yaml"),
    project("config/manager/kustomization.yaml"),
    project("config/manager/manager.yaml"),
    project("config/network-policy/kustomization.yaml"),
    project("config/network-policy/allow-metrics-traffic.yaml"),
    project("config/prometheus/kustomization.yaml"),
    project("config/prometheus/monitor.yaml"),
    project("config/prometheus/monitor_tls_patch.yaml"),
    project("config/rbac/kustomization.yaml"),
    project("config/rbac/service_account.yaml"),
    project("config/rbac/role.yaml"),
    project("config/rbac/role_binding.yaml"),
    project("config/rbac/leader_election_role.yaml"),
    project("config/rbac/leader_election_role_binding.yaml"),
    project("config/rbac/metrics_auth_role.yaml"),
    project("config/rbac/metrics_auth_role_binding.yaml"),
    project("config/rbac/metrics_reader_role.yaml"),
    // `create webhook`: the webhook server's wiring, re-rendered from PROJECT (so a file no
    // webhook needs any more goes, and config/webhook lists manifests.yaml only once a
    // #[webhook] writes it). The user-owned webhook modules, tests and conversions are in
    // `templates/@webhook/`, rendered by `create webhook` alone.
    webhooks("src/webhook/mod.rs"),
    webhooks("config/webhook/kustomization.yaml"),
    webhooks("config/webhook/service.yaml"),
    webhooks("config/certmanager/issuer.yaml"),
    webhooks("config/certmanager/certificate-webhook.yaml"),
    webhooks("config/certmanager/kustomization.yaml"),
    webhooks("config/certmanager/kustomizeconfig.yaml"),
    webhooks("config/default/manager_webhook_patch.yaml"),
    webhooks("config/network-policy/allow-webhook-traffic.yaml"),
    Entry {
        template: "src/webhook/{{ version }}/mod.rs",
        scope: Scope::WebhookVersion,
        needs: Needs::Webhooks,
    },
    resource(
        "config/crd/patches/webhook_in_{{ plural }}.yaml",
        Needs::Conversion,
    ),
    // In a multigroup project, one module per API group, listing its versions: written by the
    // group's first `create api`, then extended at its marker.
    Entry {
        template: "api/src/{{ group_module }}/mod.rs",
        scope: Scope::Group,
        needs: Api(Any),
    },
    // One module per API version, listing its kinds: written by the first `create api` of the
    // version, then extended at its markers.
    Entry {
        template: "api/src/{{ version }}/mod.rs",
        scope: Scope::Version,
        needs: Api(Any),
    },
    // `create api`: the kind's type, controllers (`--controller-name`), tests, roles, sample.
    // An external API's types (`import crd --external`) are the plain template's file, its
    // contents imported.
    resource(
        "api/src/{{ version }}/{{ kind_lower }}_types.rs",
        Api(PlainOrForeign),
    ),
    resource(
        "@deploy-image/api/src/{{ version }}/{{ kind_lower }}_types.rs",
        Api(DeployImage),
    ),
    resource(
        "@deploy-image-kubebuilder/api/src/{{ version }}/{{ kind_lower }}_types.rs",
        Api(KubebuilderImage),
    ),
    resource(
        "src/controller/{{ controller_file }}_controller.rs",
        Controller(PlainOrForeign),
    ),
    resource(
        "@deploy-image/src/controller/{{ controller_file }}_controller.rs",
        Controller(DeployImage),
    ),
    resource(
        "@deploy-image-kubebuilder/src/controller/{{ controller_file }}_controller.rs",
        Controller(KubebuilderImage),
    ),
    resource(
        "tests/{{ controller_file }}_controller.rs",
        Controller(Plain),
    ),
    resource(
        "@foreign/tests/{{ controller_file }}_controller.rs",
        Controller(Flavour::Foreign),
    ),
    resource(
        "@deploy-image/tests/{{ controller_file }}_controller.rs",
        Controller(DeployImage),
    ),
    resource(
        "@deploy-image-kubebuilder/tests/{{ controller_file }}_controller.rs",
        Controller(KubebuilderImage),
    ),
    resource("config/rbac/{{ kind_lower }}_admin_role.yaml", Api(Any)),
    resource("config/rbac/{{ kind_lower }}_editor_role.yaml", Api(Any)),
    resource("config/rbac/{{ kind_lower }}_viewer_role.yaml", Api(Any)),
    resource(
        "config/samples/{{ group }}_{{ version }}_{{ kind_lower }}.yaml",
        Api(Plain),
    ),
    resource(
        "@deploy-image/config/samples/{{ group }}_{{ version }}_{{ kind_lower }}.yaml",
        Api(DeployImage),
    ),
    resource(
        "@deploy-image-kubebuilder/config/samples/{{ group }}_{{ version }}_{{ kind_lower }}.yaml",
        Api(KubebuilderImage),
    ),
    resource("config/samples/kustomization.yaml", Api(Any)),
];

/// What `create api` adds to the kustomizations `init` wrote (and to the samples kustomization,
/// created by the first `create api`).
pub const INSERTIONS: &[Insertion] = &[
    Insertion {
        file: "api/src/lib.rs",
        marker: "apiversions",
        lines: &["pub mod {{ api_top_module }};"],
        needs: Api(Any),
        order: Order::Sorted,
        place: Place::Project,
    },
    Insertion {
        file: "api/src/{{ group_module }}/mod.rs",
        marker: "groupversions",
        lines: &["pub mod {{ version }};"],
        needs: Api(Any),
        order: Order::Sorted,
        place: Place::GroupModule,
    },
    Insertion {
        file: "api/src/lib.rs",
        marker: "crdversions",
        lines: &["{{ version_module }}::{{ kind }}::crd_version(),"],
        needs: Api(Any),
        order: Order::Append,
        place: Place::Project,
    },
    Insertion {
        file: "api/src/{{ version }}/mod.rs",
        marker: "kindmodules",
        lines: &["mod {{ kind_lower }}_types;"],
        needs: Api(Any),
        order: Order::Sorted,
        place: Place::Group,
    },
    Insertion {
        file: "api/src/{{ version }}/mod.rs",
        marker: "kindexports",
        lines: &["pub use {{ kind_lower }}_types::*;"],
        needs: Api(Any),
        order: Order::Sorted,
        place: Place::Group,
    },
    Insertion {
        file: "config/crd/kustomization.yaml",
        marker: "crdkustomizeresource",
        lines: &["- bases/{{ group_domain }}_{{ plural }}.yaml"],
        needs: Api(Any),
        order: Order::Append,
        place: Place::Project,
    },
    Insertion {
        file: "config/rbac/kustomization.yaml",
        marker: "rbackustomizeroles",
        lines: &[
            "- {{ kind_file }}_admin_role.yaml",
            "- {{ kind_file }}_editor_role.yaml",
            "- {{ kind_file }}_viewer_role.yaml",
        ],
        needs: Api(Any),
        order: Order::Append,
        place: Place::Project,
    },
    Insertion {
        file: "config/samples/kustomization.yaml",
        marker: "manifestskustomizesamples",
        lines: &["- {{ group }}_{{ version }}_{{ kind_lower }}.yaml"],
        needs: Api(Any),
        order: Order::Append,
        place: Place::Project,
    },
];

/// Whether a resource-scoped file (or insertion) at `template` with `needs` is one of
/// `resource`'s. An external API's kind (`import crd --external`) has its types in the API crate
/// and no CRD, roles or sample; a controller of it (`create api --resource=false`) is its own.
pub fn belongs_to(resource: &crate::project::Resource, needs: Needs, template: &str) -> bool {
    !(resource.external && matches!(needs, Api(_)) && !template.starts_with("api/"))
}

impl Needs {
    /// Whether a kind with (or without) an API type, a controller, of `kind`'s flavour and with
    /// a conversion webhook needs it.
    pub fn met_by(self, api: bool, controller: bool, kind: Flavour, conversion: bool) -> bool {
        let flavour = |f: Flavour| match f {
            Any => true,
            PlainOrForeign => !matches!(kind, DeployImage | KubebuilderImage),
            f => f == kind,
        };
        match self {
            Needs::Always | Needs::WebopPath => true,
            Api(f) => api && flavour(f),
            Controller(f) => controller && flavour(f),
            Needs::Webhooks => true,
            Needs::Conversion => conversion,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaffold::templates;
    use std::collections::BTreeSet;

    #[test]
    fn catalogue_and_templates_dir_list_the_same_files() {
        let listed: BTreeSet<String> = ENTRIES.iter().map(|e| e.template.to_owned()).collect();
        // Only `create webhook` or a plugin renders these, with variables of its own.
        let outside = templates::OUTSIDE_CATALOGUE;
        let embedded: BTreeSet<String> = templates::names()
            .into_iter()
            .filter(|name| !outside.iter().any(|dir| name.starts_with(dir)))
            .collect();
        assert_eq!(listed.len(), ENTRIES.len(), "a template is listed twice");
        assert_eq!(
            listed.difference(&embedded).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "listed but not in templates/"
        );
        assert_eq!(
            embedded.difference(&listed).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "in templates/ but not listed"
        );
    }

    #[test]
    fn flavours_split_on_image() {
        assert!(Api(Plain).met_by(true, false, Plain, false));
        assert!(!Api(Plain).met_by(true, false, DeployImage, false));
        assert!(Api(DeployImage).met_by(true, true, DeployImage, false));
        assert!(!Controller(Any).met_by(true, false, Plain, false));
        assert!(Api(Any).met_by(true, false, DeployImage, false));
        assert!(Controller(PlainOrForeign).met_by(false, true, Flavour::Foreign, false));
        assert!(!Controller(Plain).met_by(true, true, Flavour::Foreign, false));
        assert!(!Controller(PlainOrForeign).met_by(true, true, KubebuilderImage, false));
        assert!(!Api(DeployImage).met_by(true, true, KubebuilderImage, false));
        assert!(Api(KubebuilderImage).met_by(true, true, KubebuilderImage, false));
    }
}
