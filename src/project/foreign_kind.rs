//! `create api --resource=false` for a kind whose type the project does not scaffold, as
//! kubebuilder has it: one of Kubernetes' own (`--group apps --version v1 --kind Deployment`,
//! recorded `core: true`), an external API named by its Rust module
//! (`--external-api-path cert_manager_types::v1 --external-api-domain io`, kubebuilder's
//! `--external-api-path`/`--external-api-domain`), or an external API whose types
//! `import crd --external` wrote. The controller watches that type, and its RBAC names the kind's
//! real group.

use super::new_resource::{NewResource, Refused};
use super::validate::{self, Invalid};
use super::{Project, Resource, core_group};

impl Project {
    /// The project with a controller for the foreign kind `new` asks for, or `None` when `new`
    /// is a kind of the project's own.
    pub(super) fn with_foreign_controller(
        &self,
        new: &NewResource,
    ) -> Option<Result<(Project, Resource), Refused>> {
        let existing = self.resource(&new.group, &new.version, &new.kind);
        if let Some(path) = &new.external_path {
            return Some(self.with_external_path(new, path));
        }
        if new.resource {
            return None;
        }
        match existing {
            Some(existing) if existing.external => Some(self.controller_for(new, existing)),
            None if new.domain.is_none() => core_group(&new.group).map(|core| {
                let (controller, controllers) = new.controllers(None);
                let resource = Resource {
                    controller,
                    controllers,
                    plural: new.plural.clone(),
                    ..core.resource(&new.version, &new.kind)
                };
                self.add_foreign(new, resource)
            }),
            _ => None,
        }
    }

    fn with_external_path(
        &self,
        new: &NewResource,
        path: &str,
    ) -> Result<(Project, Resource), Refused> {
        if new.resource {
            return Err(Refused::Invalid(Invalid {
                what: "external-api-path",
                value: path.to_owned(),
                rule: "names where the kind's type is: it goes with --resource=false".into(),
            }));
        }
        validate::rust_path("external-api-path", path)?;
        let domain = new.domain.clone().unwrap_or_else(|| self.domain.clone());
        validate::domain(&domain)?;
        let (controller, controllers) = new.controllers(None);
        self.add_foreign(
            new,
            Resource {
                api: None,
                controller,
                controllers,
                core: false,
                domain,
                external: true,
                group: new.group.clone(),
                kind: new.kind.clone(),
                path: Some(path.to_owned()),
                plural: new.plural.clone(),
                version: new.version.clone(),
                webhooks: None,
            },
        )
    }

    /// `resource` added, after the checks of a new kind.
    fn add_foreign(
        &self,
        new: &NewResource,
        resource: Resource,
    ) -> Result<(Project, Resource), Refused> {
        validate::kind(&new.kind)?;
        validate::version(&new.version)?;
        new.check_controller_name()?;
        if let Some(plural) = &new.plural {
            validate::plural(plural)?;
        }
        if new.image.is_some() {
            return Err(Refused::ImageNeedsNamespacedController {
                kind: new.kind.clone(),
            });
        }
        if !new.controller {
            return Err(Refused::NothingToScaffold);
        }
        self.check_beside_others(new)?;
        let mut after = self.clone();
        after.upsert_resource(resource.clone(), None);
        Ok((after, resource))
    }

    /// A controller for the kind `existing` whose types `import crd --external` wrote: the entry
    /// keeps its domain, path and `external: true`.
    fn controller_for(
        &self,
        new: &NewResource,
        existing: &Resource,
    ) -> Result<(Project, Resource), Refused> {
        if !new.controller {
            return Err(Refused::NothingToScaffold);
        }
        if existing.has_controller() && !new.force {
            return Err(Refused::Invalid(Invalid {
                what: "kind",
                value: new.kind.clone(),
                rule: format!(
                    "the project already has a controller for {} {}/{}; pass --force to scaffold it again",
                    new.kind,
                    existing.qualified_group(),
                    new.version
                ),
            }));
        }
        self.check_controller_module(new)?;
        let (controller, controllers) = new.controllers(Some(existing));
        let resource = Resource {
            controller,
            controllers,
            ..existing.clone()
        };
        let mut after = self.clone();
        let image = None;
        after.upsert_resource(resource.clone(), image);
        Ok((after, resource))
    }
}
