//! The rules `create webhook` checks before it records webhooks for a kind (kubebuilder's
//! `create webhook` rules): the kind and version exist with an API type, or are one of
//! Kubernetes' own (kubebuilder's "webhooks for core types", recorded `core: true`), or an
//! external kind whose type the project has (`external_webhook`); at least one
//! webhook type is asked for; and conversion runs on a hub whose spokes are other versions of the
//! kind.
//! The CLI only parses arguments into a [`NewWebhook`] and reports what
//! [`Project::with_webhook`] refuses.

use super::validate::{self, Invalid};
use super::{Project, Resource, Webhooks, core_group};

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
    /// `--defaulting-path`: where the defaulting webhook is served instead of
    /// controller-runtime's path.
    pub defaulting_path: Option<String>,
    /// `--validation-path`: the same for the validating webhook.
    pub validation_path: Option<String>,
    /// `--spoke`: the versions that convert to and from the hub.
    pub spokes: Vec<String>,
    /// `--external-api-path`: the Rust module of an external kind's type (kubebuilder's
    /// `--external-api-path`, there a Go package).
    pub external_path: Option<String>,
    /// `--external-api-domain`: the external kind's domain (`io` for `cert-manager.io`).
    pub external_domain: Option<String>,
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
    #[error(
        "the project has no kind {kind} in {group}/{version}, and {group} is not one of \
         Kubernetes' API groups (core, apps, batch, ...) whose kinds get webhooks without an API \
         type; it has: {known} (another operator's kind: `webop import crd --external` its CRD, \
         or name its Rust type's module with --external-api-path)"
    )]
    UnknownKind {
        kind: String,
        group: String,
        version: String,
        known: String,
    },
    #[error(
        "{kind} {version} has no API type in this project (it was created with --resource=false): \
         webhooks are scaffolded for the kinds this project defines and for Kubernetes' own"
    )]
    NoApiType { kind: String, version: String },
    #[error(
        "--conversion on {kind} {version}: {kind} is one of Kubernetes' own kinds, whose versions \
         the API server converts; conversion webhooks are for the kinds this project defines"
    )]
    ConversionOfCoreKind { kind: String, version: String },
    #[error(
        "--conversion on {kind} {version}: {kind} is an external kind, whose CRD and its \
         conversion are its own operator's; conversion webhooks are for the kinds this project \
         defines"
    )]
    ConversionOfExternalKind { kind: String, version: String },
    #[error("{flag} can only be used with {needs}: it is where that webhook is served")]
    PathWithoutWebhook {
        flag: &'static str,
        needs: &'static str,
    },
    #[error(transparent)]
    Invalid(#[from] Invalid),
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
        let foreign_kind;
        let existing = match (
            &new.external_path,
            self.resource(&new.group, &new.version, &new.kind),
        ) {
            (Some(path), _) => {
                foreign_kind = self.external_webhook_kind(new, path)?;
                &foreign_kind
            }
            (None, Some(existing)) => existing,
            (None, None) => {
                foreign_kind = self.core_kind(new)?;
                &foreign_kind
            }
        };
        if existing.api.is_none() && !existing.foreign() {
            return Err(WebhookRefused::NoApiType {
                kind: new.kind.clone(),
                version: new.version.clone(),
            });
        }
        if existing.core && new.conversion {
            return Err(WebhookRefused::ConversionOfCoreKind {
                kind: new.kind.clone(),
                version: new.version.clone(),
            });
        }
        if existing.external && new.conversion {
            return Err(WebhookRefused::ConversionOfExternalKind {
                kind: new.kind.clone(),
                version: new.version.clone(),
            });
        }
        for (flag, path, asked, needs) in [
            (
                "--defaulting-path",
                &new.defaulting_path,
                new.defaulting,
                "--defaulting",
            ),
            (
                "--validation-path",
                &new.validation_path,
                new.validation,
                "--programmatic-validation",
            ),
        ] {
            let Some(path) = path else { continue };
            if !asked {
                return Err(WebhookRefused::PathWithoutWebhook { flag, needs });
            }
            webhook_path(flag, path)?;
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
        // A type scaffolded again (--force) keeps its path unless given another.
        let path = |given: &Option<String>, had: &Option<String>| given.clone().or(had.clone());
        let webhooks = Webhooks {
            conversion: had.conversion || new.conversion,
            defaulting: had.defaulting || new.defaulting,
            defaulting_path: path(&new.defaulting_path, &had.defaulting_path),
            spoke,
            validation: had.validation || new.validation,
            validation_path: path(&new.validation_path, &had.validation_path),
            webhook_version: WEBHOOK_VERSION.to_owned(),
        };
        let mut resource = existing.clone();
        resource.webhooks = Some(webhooks);
        let mut after = self.clone();
        let same =
            |r: &Resource| r.group == new.group && r.version == new.version && r.kind == new.kind;
        match after.resources.iter_mut().find(|r| same(r)) {
            Some(r) => *r = resource.clone(),
            None => after.resources.push(resource.clone()),
        }
        Ok((after, resource))
    }

    /// The entry of a kind of Kubernetes' own that the project does not have yet, as kubebuilder
    /// records it for a webhook (`core: true`, the k8s-openapi module as its path, no API type
    /// and no controller); refused when the group is none of Kubernetes'.
    fn core_kind(&self, new: &NewWebhook) -> Result<Resource, WebhookRefused> {
        let Some(core) = core_group(&new.group) else {
            return Err(WebhookRefused::UnknownKind {
                kind: new.kind.clone(),
                group: new.group.clone(),
                version: new.version.clone(),
                known: self.known_kinds(),
            });
        };
        validate::kind(&new.kind)?;
        validate::version(&new.version)?;
        Ok(core.resource(&new.version, &new.kind))
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

/// A webhook path as the webhook server and a webhook configuration's `service.path` take it:
/// absolute, one URL path of letters, digits and `-._~/`.
fn webhook_path(flag: &'static str, path: &str) -> Result<(), Invalid> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~/".contains(c);
    if path.starts_with('/') && path.len() > 1 && path.chars().all(allowed) {
        return Ok(());
    }
    Err(Invalid {
        what: flag.trim_start_matches("--"),
        value: path.to_owned(),
        rule: "a webhook path starts with `/` and has only letters, digits and `-._~/` (as \
               /custom-mutate-sailor)"
            .into(),
    })
}
