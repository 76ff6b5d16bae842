//! A kind's controllers. kubebuilder's `create api --controller-name` gives a kind several
//! controllers, recorded as `controllers: [{name: captain}, {name: captain-backup}]` in place
//! of `controller: true`; the first named one migrates `controller: true` to the kind's
//! lower-cased name, as kubebuilder does, so its files stay where they were.

use serde::{Deserialize, Serialize};

use super::new_resource::{NewResource, Refused};
use super::validate::{self, Invalid};
use super::{Project, Resource};

/// One entry of PROJECT's `controllers:`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedController {
    /// A DNS-1035 label, unique within the kind: the controller's name in logs and metrics, and
    /// (`-` as `_`) its module's: `captain-backup` is `src/controller/captain_backup_controller.rs`.
    pub name: String,
}

impl Resource {
    /// The names of the kind's controllers in the order they were created: PROJECT's
    /// `controllers:`, or the kind's lower-cased name for `controller: true`.
    pub fn controller_names(&self) -> Vec<String> {
        if !self.controllers.is_empty() {
            self.controllers.iter().map(|c| c.name.clone()).collect()
        } else if self.controller {
            vec![self.kind.to_ascii_lowercase()]
        } else {
            Vec::new()
        }
    }

    /// Whether the project has a controller for the kind.
    pub fn has_controller(&self) -> bool {
        self.controller || !self.controllers.is_empty()
    }

    /// The resource with the controller `name` added after its others: `controller: true`
    /// becomes the named controller `<kind>` first.
    pub(super) fn with_named_controller(&self, name: &str) -> Resource {
        let mut controllers: Vec<NamedController> = self
            .controller_names()
            .into_iter()
            .map(|name| NamedController { name })
            .collect();
        controllers.push(NamedController {
            name: name.to_owned(),
        });
        Resource {
            controller: false,
            controllers,
            ..self.clone()
        }
    }

    /// Why the kind cannot have another controller named `name`: one of its own has the name,
    /// or a name that spells the same module or reconciler.
    pub(super) fn check_new_controller(&self, name: &str) -> Result<(), Invalid> {
        for existing in self.controller_names() {
            let rule = if existing == name {
                format!(
                    "{} {} already has a controller named {name:?}",
                    self.kind, self.version
                )
            } else if letters_and_digits(&existing) == letters_and_digits(name) {
                format!(
                    "it differs from {} {}'s controller {existing:?} only in '-', and \
                     kubebuilder would name both reconcilers {}Reconciler; choose another name",
                    self.kind,
                    self.version,
                    reconciler_stem(&existing)
                )
            } else {
                continue;
            };
            return Err(Invalid {
                what: "controller name",
                value: name.to_owned(),
                rule,
            });
        }
        Ok(())
    }
}

impl Project {
    /// `create api --resource=false --controller-name NAME` of a kind the project has (its own,
    /// Kubernetes' or an external one): the kind with one more controller, and nothing else
    /// changed. `None` when `new` asks for something else.
    pub(super) fn with_another_controller(
        &self,
        new: &NewResource,
    ) -> Option<Result<(Project, Resource), Refused>> {
        let name = new.controller_name.as_deref()?;
        if new.resource || new.external_path.is_some() {
            return None;
        }
        let existing = self.resource(&new.group, &new.version, &new.kind)?;
        Some(self.add_controller(new, existing, name))
    }

    fn add_controller(
        &self,
        new: &NewResource,
        existing: &Resource,
        name: &str,
    ) -> Result<(Project, Resource), Refused> {
        new.check_controller_name()?;
        if new.image.is_some() {
            return Err(Refused::ImageNeedsNamespacedController {
                kind: new.kind.clone(),
            });
        }
        existing.check_new_controller(name)?;
        self.check_controller_module(new)?;
        let resource = existing.with_named_controller(name);
        let mut after = self.clone();
        let image = self.deploy_image_options(existing).cloned();
        after.upsert_resource(resource.clone(), image);
        Ok((after, resource))
    }

    /// A controller's module is `src/controller/<name>_controller.rs` (the kind's lower-cased
    /// name when unnamed): no other controller of the neighbouring kinds (the project's, or the
    /// group's in a multigroup project) may have it.
    pub(super) fn check_controller_module(&self, new: &NewResource) -> Result<(), Refused> {
        if !new.controller {
            return Ok(());
        }
        let name = new
            .controller_name
            .clone()
            .unwrap_or_else(|| new.kind.to_ascii_lowercase());
        let neighbours = self.resources.iter().filter(|r| {
            !(r.group == new.group && r.version == new.version && r.kind == new.kind)
                && (!self.multigroup || r.group == new.group)
        });
        for other in neighbours {
            let Some(taken) = other
                .controller_names()
                .into_iter()
                .find(|n| controller_file(n) == controller_file(&name))
            else {
                continue;
            };
            if new.controller_name.is_none() && other.kind.eq_ignore_ascii_case(&new.kind) {
                return Err(Refused::SecondController {
                    kind: new.kind.clone(),
                    group: other.group.clone(),
                    domain: other.domain.clone(),
                    version: other.version.clone(),
                });
            }
            return Err(Refused::Invalid(Invalid {
                what: "controller name",
                value: name.clone(),
                rule: format!(
                    "its module would be {}_controller.rs, the module of {} {}'s controller \
                     {taken:?}; choose another --controller-name",
                    controller_file(&name),
                    other.kind,
                    other.version
                ),
            }));
        }
        Ok(())
    }
}

impl NewResource {
    /// `--controller-name` is a DNS-1035 label and names a controller that is scaffolded.
    pub(super) fn check_controller_name(&self) -> Result<(), Invalid> {
        let Some(name) = &self.controller_name else {
            return Ok(());
        };
        validate::controller_name(name)?;
        if !self.controller {
            return Err(Invalid {
                what: "controller name",
                value: name.clone(),
                rule: "--controller-name names the controller to scaffold: it goes with \
                       --controller=true"
                    .into(),
            });
        }
        Ok(())
    }

    /// PROJECT's `controller` and `controllers` of the kind `new` records, `existing` the entry
    /// it replaces (`--force`): the named controllers stay, `--controller-name` adds one.
    pub(super) fn controllers(&self, existing: Option<&Resource>) -> (bool, Vec<NamedController>) {
        if !self.controller {
            return (false, Vec::new());
        }
        let mut names: Vec<String> = existing
            .filter(|e| !e.controllers.is_empty() || self.controller_name.is_some())
            .map_or_else(Vec::new, Resource::controller_names);
        if let Some(name) = &self.controller_name
            && !names.contains(name)
        {
            names.push(name.clone());
        }
        if names.is_empty() {
            return (true, Vec::new());
        }
        let named = names.into_iter().map(|name| NamedController { name });
        (false, named.collect())
    }
}

/// The stem of a controller's module and files: `captain-backup` → `captain_backup`
/// (`captain_backup_controller.rs`, `tests/captain_backup_controller.rs`).
pub fn controller_file(name: &str) -> String {
    name.replace('-', "_")
}

/// kubebuilder's reconciler name without `Reconciler`: `captain-backup` → `CaptainBackup`.
pub fn reconciler_stem(name: &str) -> String {
    name.split('-')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// kubebuilder's collision key: names equal but for '-' and case make one reconciler type.
fn letters_and_digits(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captain(controller: bool) -> Resource {
        Resource {
            api: None,
            controller,
            controllers: Vec::new(),
            core: false,
            domain: "testproject.org".into(),
            external: false,
            group: "crew".into(),
            kind: "Captain".into(),
            path: None,
            plural: None,
            version: "v1".into(),
            webhooks: None,
        }
    }

    #[test]
    fn a_named_controller_migrates_the_unnamed_one_to_the_kind_name() {
        let named = captain(true).with_named_controller("captain-backup");
        assert!(!named.controller);
        assert_eq!(named.controller_names(), ["captain", "captain-backup"]);
        assert!(named.has_controller());
        let first = captain(false).with_named_controller("captain");
        assert_eq!(first.controller_names(), ["captain"]);
        assert!(captain(false).controller_names().is_empty());
    }

    #[test]
    fn names_and_their_reconcilers() {
        assert_eq!(controller_file("captain-backup"), "captain_backup");
        assert_eq!(reconciler_stem("captain-backup"), "CaptainBackup");
        assert_eq!(reconciler_stem("captain"), "Captain");
    }

    #[test]
    fn a_second_controller_of_the_same_name_or_reconciler_is_refused() {
        let named = captain(true).with_named_controller("captain-backup");
        let same = named.check_new_controller("captain").unwrap_err();
        assert_eq!(same.what, "controller name");
        assert!(
            same.rule
                .contains("already has a controller named \"captain\"")
        );
        let spelled = named.check_new_controller("captainbackup").unwrap_err();
        assert!(
            spelled.rule.contains("CaptainBackupReconciler"),
            "{spelled}"
        );
        named.check_new_controller("captain-audit").unwrap();
    }
}
