//! The rules `delete webhook` checks before it takes webhooks out of a kind: the kind exists and
//! has each webhook type asked for, and a conversion webhook is deleted on its hub.

use super::{Project, Resource, Webhooks};

/// The webhook types `delete webhook` is asked to remove from one kind and version; none set:
/// all the kind has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WebhookTypes {
    pub defaulting: bool,
    pub validation: bool,
    pub conversion: bool,
}

/// Why webhooks cannot be deleted. Each message names the value and the rule.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DeleteWebhookRefused {
    #[error("the project has no kind {kind} in {group}/{version}; it has: {known}")]
    UnknownKind {
        kind: String,
        group: String,
        version: String,
        known: String,
    },
    #[error(
        "{kind} {version} is a spoke of the conversion webhook of its hub {hub}: the conversion \
         is deleted on the hub (`webop delete webhook --group {group} --version {hub} --kind \
         {kind} --conversion`)"
    )]
    Spoke {
        kind: String,
        group: String,
        version: String,
        hub: String,
    },
    #[error("{kind} {version} has no webhook (`webop create webhook` adds them)")]
    NoWebhooks { kind: String, version: String },
    #[error("{kind} {version} has no {which} webhook; it has: {has}")]
    Missing {
        kind: String,
        version: String,
        which: &'static str,
        has: String,
    },
}

impl WebhookTypes {
    /// The types `webhooks` has, by their names in messages.
    fn names(webhooks: &Webhooks) -> Vec<&'static str> {
        [
            (webhooks.defaulting, "defaulting"),
            (webhooks.validation, "validation"),
            (webhooks.conversion, "conversion"),
        ]
        .into_iter()
        .filter_map(|(has, name)| has.then_some(name))
        .collect()
    }
}

impl Project {
    /// The project without the webhooks `which` (all when none is set) of `kind` in
    /// `group`/`version`, and the resource as it was.
    pub fn without_webhook(
        &self,
        group: &str,
        version: &str,
        kind: &str,
        which: WebhookTypes,
    ) -> Result<(Project, Resource), DeleteWebhookRefused> {
        let Some(resource) = self.resource(group, version, kind).cloned() else {
            return Err(DeleteWebhookRefused::UnknownKind {
                kind: kind.to_owned(),
                group: group.to_owned(),
                version: version.to_owned(),
                known: self.known_kinds(),
            });
        };
        let Some(webhooks) = resource.webhooks.clone() else {
            if let Some(hub) = self.hub_of(group, version, kind) {
                return Err(DeleteWebhookRefused::Spoke {
                    kind: kind.to_owned(),
                    group: group.to_owned(),
                    version: version.to_owned(),
                    hub: hub.version.clone(),
                });
            }
            return Err(DeleteWebhookRefused::NoWebhooks {
                kind: kind.to_owned(),
                version: version.to_owned(),
            });
        };
        let all = which == WebhookTypes::default();
        for (asked, has, name) in [
            (which.defaulting, webhooks.defaulting, "defaulting"),
            (which.validation, webhooks.validation, "validation"),
            (which.conversion, webhooks.conversion, "conversion"),
        ] {
            if asked && !has {
                return Err(DeleteWebhookRefused::Missing {
                    kind: kind.to_owned(),
                    version: version.to_owned(),
                    which: name,
                    has: WebhookTypes::names(&webhooks).join(", "),
                });
            }
        }
        let left = Webhooks {
            defaulting: webhooks.defaulting && !all && !which.defaulting,
            validation: webhooks.validation && !all && !which.validation,
            conversion: webhooks.conversion && !all && !which.conversion,
            ..webhooks.clone()
        };
        let left = Webhooks {
            spoke: if left.conversion {
                left.spoke.clone()
            } else {
                Vec::new()
            },
            defaulting_path: left.defaulting_path.clone().filter(|_| left.defaulting),
            validation_path: left.validation_path.clone().filter(|_| left.validation),
            ..left
        };
        let mut after = self.clone();
        let entry = after
            .resources
            .iter_mut()
            .find(|r| **r == resource)
            .expect("the resource is the project's");
        entry.webhooks = (left.defaulting || left.validation || left.conversion).then_some(left);
        // A kind of Kubernetes' or an external one (`--external-api-path`) that `create webhook`
        // recorded for its webhooks alone goes with them, as it came.
        let webhooks_alone = entry.foreign() && entry.api.is_none() && !entry.has_controller();
        if webhooks_alone && entry.webhooks.is_none() {
            after.resources.retain(|r| {
                (&r.group, &r.version, &r.kind)
                    != (&resource.group, &resource.version, &resource.kind)
            });
        }
        Ok((after, resource))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::{Api, Resource};

    fn kind(version: &str, webhooks: Option<Webhooks>) -> Resource {
        Resource {
            api: Some(Api {
                crd_version: "v1".into(),
                namespaced: true,
            }),
            controller: false,
            controllers: Vec::new(),
            domain: "example.com".into(),
            core: false,
            external: false,
            group: "app".into(),
            kind: "WebApp".into(),
            path: None,
            plural: None,
            version: version.into(),
            webhooks,
        }
    }

    fn project() -> Project {
        let mut project = Project::new("webapp-operator", "example.com", None);
        project.resources.push(kind(
            "v1",
            Some(Webhooks {
                conversion: true,
                defaulting: true,
                defaulting_path: Some("/custom-mutate".into()),
                spoke: vec!["v2".into()],
                validation: false,
                validation_path: None,
                webhook_version: "v1".into(),
            }),
        ));
        project.resources.push(kind("v2", None));
        project
    }

    #[test]
    fn one_type_goes_and_the_others_stay() {
        let only = WebhookTypes {
            conversion: true,
            ..WebhookTypes::default()
        };
        let (after, _) = project()
            .without_webhook("app", "v1", "WebApp", only)
            .unwrap();
        let left = after.resources[0].webhooks.as_ref().unwrap();
        assert!(left.defaulting && !left.conversion && left.spoke.is_empty());
        assert_eq!(left.defaulting_path.as_deref(), Some("/custom-mutate"));
        let defaulting = WebhookTypes {
            defaulting: true,
            ..WebhookTypes::default()
        };
        let (after, _) = project()
            .without_webhook("app", "v1", "WebApp", defaulting)
            .unwrap();
        let left = after.resources[0].webhooks.as_ref().unwrap();
        assert_eq!(left.defaulting_path, None, "the path goes with its webhook");
        let (after, _) = project()
            .without_webhook("app", "v1", "WebApp", WebhookTypes::default())
            .unwrap();
        assert_eq!(after.resources[0].webhooks, None);
    }

    #[test]
    fn bad_requests_name_the_rule() {
        let validation = WebhookTypes {
            validation: true,
            ..WebhookTypes::default()
        };
        let err = project()
            .without_webhook("app", "v1", "WebApp", validation)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "WebApp v1 has no validation webhook; it has: defaulting, conversion"
        );
        let err = project()
            .without_webhook("app", "v2", "WebApp", WebhookTypes::default())
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("is a spoke of the conversion webhook of its hub v1")
        );
        let err = project()
            .without_webhook("app", "v3", "WebApp", WebhookTypes::default())
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the project has no kind WebApp in app/v3")
        );
    }
}
