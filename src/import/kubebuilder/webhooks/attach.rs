//! Which kind each webhook marker belongs to: a kind the import writes, or one of Kubernetes'
//! kinds with webhooks in PROJECT; what does not belong is an issue.

use super::super::{CoreWebhooks, ImportedKind, Issue};
use super::{GoMarkers, WebhookAttribute};

/// What webhook markers attach to: a kind the import writes, or one of Kubernetes' kinds with
/// webhooks in PROJECT.
struct Target<'a> {
    resource: &'a super::super::Resource,
    group_domain: &'a str,
    webhooks: &'a mut Vec<WebhookAttribute>,
}

/// Gives each kind (of the project's, then of Kubernetes') the attributes of its markers; a
/// marker of no imported kind, or of a webhook PROJECT does not list for the kind, is an issue.
/// A configuration's name goes on the first webhook of its type.
pub fn attach(
    markers: &GoMarkers,
    kinds: &mut [ImportedKind],
    core: &mut [CoreWebhooks],
    issues: &mut Vec<Issue>,
) {
    let mut targets: Vec<Target> = (kinds.iter_mut())
        .map(|k| Target {
            resource: &k.resource,
            group_domain: &k.group_domain,
            webhooks: &mut k.webhooks,
        })
        .chain(core.iter_mut().map(|c| Target {
            resource: &c.resource,
            group_domain: &c.group_domain,
            webhooks: &mut c.webhooks,
        }))
        .collect();
    for marker in &markers.webhooks {
        let kind = targets.iter_mut().find(|k| {
            let plural = k
                .resource
                .plural
                .clone()
                .unwrap_or_else(|| webop_attrs::names::crd_default_plural(&k.resource.kind));
            marker.is_for(k.group_domain, &plural, &k.resource.version)
        });
        let what = if marker.mutating {
            "defaulting"
        } else {
            "validation"
        };
        let Some(kind) = kind else {
            let groups: Vec<&str> = (marker.groups.iter())
                .map(|g| if g.is_empty() { "core" } else { g.as_str() })
                .collect();
            issues.push(Issue {
                file: marker.file.clone(),
                line: marker.line,
                what: format!(
                    "{what} webhook of {} {}: not a kind the import writes: left out",
                    groups.join(";"),
                    marker.resources.join(";")
                ),
            });
            continue;
        };
        let listed = kind.resource.webhooks.as_ref().is_some_and(|w| {
            if marker.mutating {
                w.defaulting
            } else {
                w.validation
            }
        });
        if !listed {
            issues.push(Issue {
                file: marker.file.clone(),
                line: marker.line,
                what: format!(
                    "{what} webhook of {} {}: PROJECT lists no {what} webhook of the kind: left out",
                    kind.resource.kind, kind.resource.version
                ),
            });
            continue;
        }
        let path = default_path(
            marker.mutating,
            kind.group_domain,
            &kind.resource.version,
            &kind.resource.kind,
        );
        kind.webhooks.push(marker.attribute(&path));
    }
    for configuration in &markers.configurations {
        let first = (targets.iter_mut())
            .flat_map(|k| k.webhooks.iter_mut())
            .find(|w| w.mutating == configuration.mutating);
        match first {
            Some(webhook) => {
                webhook.text = format!("{}\n{}", configuration.attribute, webhook.text);
            }
            None => issues.push(Issue {
                file: configuration.file.clone(),
                line: configuration.line,
                what: "a webhook configuration's name, with no webhook of its type: left out"
                    .into(),
            }),
        }
    }
}

/// controller-runtime's path of a kind's defaulting or validating webhook, which webop serves.
pub(super) fn default_path(mutating: bool, group: &str, version: &str, kind: &str) -> String {
    format!(
        "/{}-{}-{version}-{}",
        if mutating { "mutate" } else { "validate" },
        group.replace('.', "-"),
        kind.to_ascii_lowercase()
    )
}
