//! The rules a new kind must meet before `create api` records it: its names, its flags, and how
//! it sits beside the project's other kinds; and what `delete api` takes out. The CLI only parses
//! arguments into a [`NewResource`] and reports what [`Project::with_resource`] and
//! [`Project::without_resource`] refuse.

use super::validate::{self, Invalid};
use super::{Api, DeployImageOptions, Project, Resource};

/// A kind that `create api` is asked to add, as given on the command line.
#[derive(Clone, Debug, Default)]
pub struct NewResource {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `--plural`; derived from the kind when `None`.
    pub plural: Option<String>,
    pub namespaced: bool,
    /// Scaffold the API type.
    pub resource: bool,
    /// Scaffold a controller.
    pub controller: bool,
    /// `--controller-name`: the controller's name (kubebuilder's named controllers); with
    /// `--resource=false` on a kind the project has, a controller added beside its others.
    pub controller_name: Option<String>,
    /// `--image` and its options.
    pub image: Option<DeployImageOptions>,
    /// Scaffold the kind again if the project has it.
    pub force: bool,
    /// The group's domain when it is not the project's (an imported CRD's group); `None`: the
    /// project's domain.
    pub domain: Option<String>,
    /// An imported CRD's version: any DNS-1035 label rather than a Kubernetes-style version.
    pub any_version: bool,
    /// An API the project only uses (`import crd --external`).
    pub external: bool,
    /// `--external-api-path`: the Rust module of an external kind's type, for a controller
    /// (`--resource=false`) of a kind the project does not define.
    pub external_path: Option<String>,
}

/// Why a kind cannot be added. Each message names the value and the rule.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error("nothing to scaffold: --resource=false and --controller=false")]
    NothingToScaffold,
    #[error(
        "--image scaffolds a controller that runs the image in the namespace of each {kind}: it \
         needs --resource=true, --controller=true and --namespaced=true"
    )]
    ImageNeedsNamespacedController { kind: String },
    #[error(
        "--container-command {command:?}: argument {position} is empty; the command is its \
         arguments separated by commas (kubebuilder's --image-container-command: \
         memcached,--memory-limit=64,-o,modern,-v)"
    )]
    EmptyCommandArgument { command: String, position: usize },
    #[error("the project has no kind {kind} in {group}/{version}; it has: {known}")]
    UnknownKind {
        kind: String,
        group: String,
        version: String,
        /// The project's kinds, as `group/version Kind`.
        known: String,
    },
    #[error(
        "{kind} {version} has webhooks ({which}): delete api would leave them registered for a \
         kind that is gone; delete them first (`webop delete webhook --group {group} --version \
         {version} --kind {kind}`), or keep the kind"
    )]
    HasWebhooks {
        kind: String,
        group: String,
        version: String,
        which: String,
    },
    #[error(
        "{kind} {version} is a spoke of the conversion webhook of {kind} {hub}: the hub converts \
         to and from it ({kind_lower}_conversion.rs); delete the conversion webhook first (`webop \
         delete webhook --group {group} --version {hub} --kind {kind} --conversion`), or keep \
         {version}"
    )]
    SpokeOfHub {
        kind: String,
        kind_lower: String,
        group: String,
        version: String,
        hub: String,
    },
    #[error(
        "{kind} already has a controller (created with {group}.{domain}/{version}): a kind has \
         one controller by default; pass --controller=false, or name a second one with \
         --controller-name"
    )]
    SecondController {
        kind: String,
        group: String,
        domain: String,
        version: String,
    },
}

impl Project {
    /// The project with `new` recorded, and the resource as recorded; or why the kind is refused.
    pub fn with_resource(&self, new: &NewResource) -> Result<(Project, Resource), Refused> {
        if let Some(another) = self.with_another_controller(new) {
            return another;
        }
        if let Some(foreign) = self.with_foreign_controller(new) {
            return foreign;
        }
        let domain = new.domain.as_deref().unwrap_or(&self.domain);
        new.check_alone(domain)?;
        self.check_beside_others(new)?;
        let existing = self.resource(&new.group, &new.version, &new.kind);
        let (controller, controllers) = new.controllers(existing);
        let resource = Resource {
            api: new.resource.then(|| Api {
                crd_version: "v1".into(),
                namespaced: new.namespaced,
            }),
            controller,
            controllers,
            domain: domain.to_owned(),
            core: false,
            external: new.external,
            group: new.group.clone(),
            kind: new.kind.clone(),
            path: new
                .resource
                .then(|| self.api_module_path(&new.group, &new.version)),
            plural: new.plural.clone(),
            version: new.version.clone(),
            // `create api --force` scaffolds the kind again; its webhooks stay.
            webhooks: self
                .resource(&new.group, &new.version, &new.kind)
                .and_then(|r| r.webhooks.clone()),
        };
        let mut after = self.clone();
        after.upsert_resource(resource.clone(), new.image.clone());
        Ok((after, resource))
    }

    /// The project without the kind `kind` of `group`/`version`, and the resource as it was
    /// recorded; the kind's `--image` options go with it.
    pub fn without_resource(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Result<(Project, Resource), Refused> {
        let Some(resource) = self.resource(group, version, kind).cloned() else {
            return Err(Refused::UnknownKind {
                kind: kind.to_owned(),
                group: group.to_owned(),
                version: version.to_owned(),
                known: self.known_kinds(),
            });
        };
        if let Some(webhooks) = &resource.webhooks {
            let which: Vec<&str> = [
                (webhooks.defaulting, "defaulting"),
                (webhooks.validation, "validation"),
                (webhooks.conversion, "conversion"),
            ]
            .into_iter()
            .filter_map(|(has, name)| has.then_some(name))
            .collect();
            return Err(Refused::HasWebhooks {
                kind: kind.to_owned(),
                group: group.to_owned(),
                version: version.to_owned(),
                which: which.join(", "),
            });
        }
        if let Some(hub) = self.hub_of(group, version, kind) {
            return Err(Refused::SpokeOfHub {
                kind: kind.to_owned(),
                kind_lower: kind.to_ascii_lowercase(),
                group: group.to_owned(),
                version: version.to_owned(),
                hub: hub.version.clone(),
            });
        }
        let mut after = self.clone();
        after.resources.retain(|r| *r != resource);
        if let Some(plugin) = &mut after.plugins.deploy_image {
            plugin
                .resources
                .retain(|r| !(r.group == group && r.version == version && r.kind == kind));
            if plugin.resources.is_empty() {
                after.plugins.deploy_image = None;
            }
        }
        Ok((after, resource))
    }

    /// The rules that involve the project's other kinds.
    pub(super) fn check_beside_others(&self, new: &NewResource) -> Result<(), Refused> {
        let others: Vec<&Resource> = self
            .resources
            .iter()
            .filter(|r| !(r.group == new.group && r.version == new.version && r.kind == new.kind))
            .collect();
        // Kinds that share a version module, a controller module, role files: every kind in a
        // single-group project, the kinds of the same group in a multigroup one.
        let neighbours: Vec<&Resource> = others
            .iter()
            .copied()
            .filter(|r| !self.multigroup || r.group == new.group)
            .collect();
        if self.multigroup {
            let module = super::layout::group_module(&new.group);
            if let Some(other) = others
                .iter()
                .find(|r| r.group != new.group && super::layout::group_module(&r.group) == module)
            {
                return Err(Refused::Invalid(Invalid {
                    what: "group",
                    value: new.group.clone(),
                    rule: format!(
                        "its module would be `{module}`, which group {} already has (api/src/{module}/); \
                         in a multigroup project each group needs a module of its own",
                        other.group
                    ),
                }));
            }
        }
        if self.resource(&new.group, &new.version, &new.kind).is_some() && !new.force {
            return Err(invalid_kind(
                new,
                format!(
                    "the project already has {} in {}.{}/{}; pass --force to scaffold it again",
                    new.kind, new.group, self.domain, new.version
                ),
            ));
        }
        if let Some(other) = neighbours
            .iter()
            .find(|r| r.version == new.version && r.kind.eq_ignore_ascii_case(&new.kind))
        {
            return Err(invalid_kind(
                new,
                format!(
                    "{} already has {} (of group {}) in {}_types.rs; one version module \
                     cannot hold two kinds of the same (lower-cased) name{}",
                    super::layout::place(
                        &format!("api/src/{}/", new.version),
                        &new.group,
                        self.multigroup
                    ),
                    other.kind,
                    other.qualified_group(),
                    other.kind.to_ascii_lowercase(),
                    if self.multigroup {
                        ""
                    } else {
                        " (`webop edit --multigroup` gives each group modules of its own)"
                    }
                ),
            ));
        }
        if new.resource {
            self.check_plural(new, &others)?;
        }
        let same_version: Vec<&str> = neighbours
            .iter()
            .filter(|r| r.version == new.version)
            .map(|r| r.kind.as_str())
            .collect();
        validate::kind_alongside(&new.kind, &new.version, &same_version)?;
        self.check_controller_module(new)?;
        Ok(())
    }
}

impl Project {
    /// The CRD's name is `<plural>.<group>`: two kinds of a group with the same plural would
    /// be one CRD (`webop manifests` would write one over the other), and the versions of a kind
    /// are one CRD with one plural.
    fn check_plural(&self, new: &NewResource, others: &[&Resource]) -> Result<(), Refused> {
        let domain = new.domain.as_deref().unwrap_or(&self.domain);
        let plural = new
            .plural
            .clone()
            .unwrap_or_else(|| crate::names::plural(&new.kind));
        let crds = others
            .iter()
            .filter(|r| r.api.is_some() && r.group == new.group && r.domain == domain);
        for other in crds {
            let same_kind = other.kind == new.kind;
            if same_kind == (other.plural() == plural) {
                continue;
            }
            let rule = if same_kind {
                format!(
                    "{} {} has the plural `{}`: the versions of a kind are one \
                     CustomResourceDefinition, with one plural; pass --plural {}",
                    other.kind,
                    other.version,
                    other.plural(),
                    other.plural()
                )
            } else {
                format!(
                    "{} of group {}.{domain} has it already: the CustomResourceDefinition's name \
                     is `<plural>.<group>`, so the two kinds would be one CRD; choose another \
                     --plural",
                    other.kind, other.group
                )
            };
            return Err(Refused::Invalid(Invalid {
                what: "plural",
                value: plural,
                rule,
            }));
        }
        Ok(())
    }
}

impl NewResource {
    /// The rules of the kind's own names and flags.
    fn check_alone(&self, domain: &str) -> Result<(), Refused> {
        validate::kind(&self.kind)?;
        validate::group(&self.group)?;
        validate::group_without_domain(&self.group, domain)?;
        validate::qualified_group(&self.group, domain)?;
        if self.any_version {
            validate::served_version(&self.version)?;
        } else {
            validate::version(&self.version)?;
        }
        match &self.plural {
            Some(plural) => validate::plural(plural)?,
            None => validate::derived_plural(&self.kind, &crate::names::plural(&self.kind))?,
        }
        if let Some(image) = &self.image {
            validate::image(&image.image)?;
        }
        self.check_controller_name()?;
        if !self.resource && !self.controller {
            return Err(Refused::NothingToScaffold);
        }
        if self.image.is_some() && !(self.resource && self.controller && self.namespaced) {
            return Err(Refused::ImageNeedsNamespacedController {
                kind: self.kind.clone(),
            });
        }
        let options = self.image.as_ref();
        if let Some(command) = options.and_then(|o| o.container_command.as_deref())
            && let Some(empty) = command.split(',').position(str::is_empty)
        {
            return Err(Refused::EmptyCommandArgument {
                command: command.to_owned(),
                position: empty + 1,
            });
        }
        Ok(())
    }
}

fn invalid_kind(new: &NewResource, rule: String) -> Refused {
    Refused::Invalid(Invalid {
        what: "kind",
        value: new.kind.clone(),
        rule,
    })
}
