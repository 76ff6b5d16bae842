//! The rules `create webhook` checks before it records webhooks for a kind (kubebuilder's
//! `create webhook` rules): the kind and version exist with an API type, at least one webhook
//! type is asked for, and conversion runs on a hub whose spokes are other versions of the kind.
//! The CLI only parses arguments into a [`NewWebhook`] and reports what
//! [`Project::with_webhook`] refuses.

use super::{Project, Resource, Webhooks};

/// The admissionregistration API version kubebuilder records (`webhookVersion: v1`).
pub const WEBHOOK_VERSION: &str = "v1";

/// The webhooks `create webhook` is asked to add to one kind and version.
#[derive(Clone, Debug, Default)]
pub struct NewWebhook {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `--defaulting`.
    pub defaulting: bool,
    /// `--programmatic-validation`.
    pub validation: bool,
    /// `--conversion`: this version is the hub.
    pub conversion: bool,
    /// `--spoke`: the versions that convert to and from the hub.
    pub spokes: Vec<String>,
    /// Scaffold a webhook type again although the kind has it.
    pub force: bool,
}

/// Why webhooks cannot be added. Each message names the value and the rule.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WebhookRefused {
    #[error(
        "nothing to scaffold: create webhook needs at least one of --defaulting, \
         --programmatic-validation and --conversion"
    )]
    NoWebhookType,
    #[error("the project has no kind {kind} in {group}/{version}; it has: {known}")]
    UnknownKind {
        kind: String,
        group: String,
        version: String,
        known: String,
    },
    #[error(
        "{kind} {version} has no API type in this project (it was created with --resource=false): \
         webhooks are scaffolded for the kinds this project defines"
    )]
    NoApiType { kind: String, version: String },
    #[error(
        "--spoke {spokes} needs --conversion: spokes are the versions a conversion webhook converts"
    )]
    SpokeWithoutConversion { spokes: String },
    #[error(
        "--conversion on {kind} {version}: {kind} has no other version to convert to (conversion \
         needs two versions; add one with `webop create api --group {group} --version <v2> --kind \
         {kind} --controller=false`)"
    )]
    SingleVersion {
        kind: String,
        group: String,
        version: String,
    },
    #[error(
        "--conversion on {kind} {version} needs --spoke: the versions that convert to and from \
         the hub {version} ({kind} also has {others})"
    )]
    NoSpoke {
        kind: String,
        version: String,
        others: String,
    },
    #[error(
        "invalid spoke {spoke:?}: {kind} has no version {spoke} in group {group} (it has {versions}); \
         create it first with `webop create api --group {group} --version {spoke} --kind {kind} \
         --controller=false`"
    )]
    UnknownSpoke {
        spoke: String,
        kind: String,
        group: String,
        versions: String,
    },
    #[error("invalid spoke {spoke:?}: the hub {spoke} cannot be its own spoke")]
    SpokeIsHub { spoke: String },
    #[error(
        "--conversion on {kind} {version}: {version} is a spoke of the hub {hub}; conversion runs \
         on the hub (`webop create webhook --group {group} --version {hub} --kind {kind} \
         --conversion --spoke {version}`)"
    )]
    ConversionOnSpoke {
        kind: String,
        group: String,
        version: String,
        hub: String,
    },
    #[error(
        "--conversion on {kind} {version}: {kind} already converts through the hub {hub}; a kind \
         has one hub"
    )]
    SecondHub {
        kind: String,
        version: String,
        hub: String,
    },
    #[error(
        "{kind} {version} already has a {which} webhook; pass --force to scaffold its files again"
    )]
    Exists {
        kind: String,
        version: String,
        which: &'static str,
    },
}

impl Project {
    /// The project with the webhooks of `new` recorded (merged with those the kind has), and
    /// the resource as recorded; or why they are refused.
    pub fn with_webhook(&self, new: &NewWebhook) -> Result<(Project, Resource), WebhookRefused> {
        if !new.defaulting && !new.validation && !new.conversion {
            return Err(WebhookRefused::NoWebhookType);
        }
        let Some(existing) = self.resource(&new.group, &new.version, &new.kind) else {
            return Err(WebhookRefused::UnknownKind {
                kind: new.kind.clone(),
                group: new.group.clone(),
                version: new.version.clone(),
                known: self.known_kinds(),
            });
        };
        if existing.api.is_none() {
            return Err(WebhookRefused::NoApiType {
                kind: new.kind.clone(),
                version: new.version.clone(),
            });
        }
        if !new.spokes.is_empty() && !new.conversion {
            return Err(WebhookRefused::SpokeWithoutConversion {
                spokes: new.spokes.join(","),
            });
        }
        let had = existing.webhooks.clone().unwrap_or_default();
        if !new.force {
            for (asked, has, which) in [
                (new.defaulting, had.defaulting, "defaulting"),
                (new.validation, had.validation, "validation"),
                (new.conversion, had.conversion, "conversion"),
            ] {
                if asked && has {
                    return Err(WebhookRefused::Exists {
                        kind: new.kind.clone(),
                        version: new.version.clone(),
                        which,
                    });
                }
            }
        }
        if new.conversion {
            self.check_conversion(new)?;
        }
        let mut spoke = had.spoke.clone();
        for s in &new.spokes {
            if !spoke.contains(s) {
                spoke.push(s.clone());
            }
        }
        let webhooks = Webhooks {
            conversion: had.conversion || new.conversion,
            defaulting: had.defaulting || new.defaulting,
            spoke,
            validation: had.validation || new.validation,
            webhook_version: WEBHOOK_VERSION.to_owned(),
        };
        let mut resource = existing.clone();
        resource.webhooks = Some(webhooks);
        let mut after = self.clone();
        for r in &mut after.resources {
            if r.group == new.group && r.version == new.version && r.kind == new.kind {
                *r = resource.clone();
            }
        }
        Ok((after, resource))
    }

    /// The hub of the kind `kind` of `group` whose spokes include `version`, if any.
    pub fn hub_of(&self, group: &str, version: &str, kind: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| {
            r.group == group
                && r.kind == kind
                && r.webhooks
                    .as_ref()
                    .is_some_and(|w| w.conversion && w.spoke.iter().any(|s| s == version))
        })
    }

    /// The project's kinds, as `group/version Kind`, for messages.
    pub(super) fn known_kinds(&self) -> String {
        let known: Vec<String> = self
            .resources
            .iter()
            .map(|r| format!("{}/{} {}", r.group, r.version, r.kind))
            .collect();
        if known.is_empty() {
            "no kinds".to_owned()
        } else {
            known.join(", ")
        }
    }

    /// Conversion runs on a hub; its spokes are the kind's other versions with an API type.
    fn check_conversion(&self, new: &NewWebhook) -> Result<(), WebhookRefused> {
        let versions: Vec<&str> = self
            .resources
            .iter()
            .filter(|r| r.api.is_some() && r.group == new.group && r.kind == new.kind)
            .map(|r| r.version.as_str())
            .collect();
        let others: Vec<&str> = versions
            .iter()
            .copied()
            .filter(|v| *v != new.version)
            .collect();
        if others.is_empty() {
            return Err(WebhookRefused::SingleVersion {
                kind: new.kind.clone(),
                group: new.group.clone(),
                version: new.version.clone(),
            });
        }
        if let Some(hub) = self.hub_of(&new.group, &new.version, &new.kind) {
            return Err(WebhookRefused::ConversionOnSpoke {
                kind: new.kind.clone(),
                group: new.group.clone(),
                version: new.version.clone(),
                hub: hub.version.clone(),
            });
        }
        if let Some(hub) = self.resources.iter().find(|r| {
            r.group == new.group
                && r.kind == new.kind
                && r.version != new.version
                && r.webhooks.as_ref().is_some_and(|w| w.conversion)
        }) {
            return Err(WebhookRefused::SecondHub {
                kind: new.kind.clone(),
                version: new.version.clone(),
                hub: hub.version.clone(),
            });
        }
        if new.spokes.is_empty() {
            return Err(WebhookRefused::NoSpoke {
                kind: new.kind.clone(),
                version: new.version.clone(),
                others: others.join(", "),
            });
        }
        for spoke in &new.spokes {
            if *spoke == new.version {
                return Err(WebhookRefused::SpokeIsHub {
                    spoke: spoke.clone(),
                });
            }
            if !others.contains(&spoke.as_str()) {
                return Err(WebhookRefused::UnknownSpoke {
                    spoke: spoke.clone(),
                    kind: new.kind.clone(),
                    group: new.group.clone(),
                    versions: versions.join(", "),
                });
            }
        }
        Ok(())
    }
}
