//! `create webhook` of an external kind (another operator's, as kubebuilder's
//! `create webhook --external-api-path ... --external-api-domain ...`): a kind whose Rust type
//! the project has without owning its CRD, from `import crd --external` or named by its module
//! with `--external-api-path` (then recorded here as kubebuilder records it: `external: true`,
//! the domain, the type's module as `path`).

use super::new_webhook::{NewWebhook, WebhookRefused};
use super::validate::{self, Invalid};
use super::{Project, Resource};

impl Project {
    /// The entry `create webhook --external-api-path` adds webhooks to: the project's entry of
    /// the kind when it is that external kind, else a new one; refused when the project has the
    /// kind as something else or at another path.
    pub(super) fn external_webhook_kind(
        &self,
        new: &NewWebhook,
        path: &str,
    ) -> Result<Resource, WebhookRefused> {
        validate::rust_path("external-api-path", path)?;
        let domain = new
            .external_domain
            .clone()
            .unwrap_or_else(|| self.domain.clone());
        validate::domain(&domain)?;
        if let Some(existing) = self.resource(&new.group, &new.version, &new.kind) {
            if existing.external && existing.path.as_deref() == Some(path) {
                return Ok(existing.clone());
            }
            let recorded = match (&existing.path, existing.external) {
                (Some(at), true) => format!("as an external kind at {at}"),
                _ => "as a kind of its own".to_owned(),
            };
            return Err(WebhookRefused::Invalid(Invalid {
                what: "external-api-path",
                value: path.to_owned(),
                rule: format!(
                    "the project already has {} {}/{} {recorded}; drop --external-api-path to \
                     add webhooks to it",
                    new.kind, new.group, new.version
                ),
            }));
        }
        validate::group(&new.group)?;
        validate::qualified_group(&new.group, &domain)?;
        validate::kind(&new.kind)?;
        validate::version(&new.version)?;
        Ok(Resource {
            api: None,
            controller: false,
            controllers: Vec::new(),
            core: false,
            domain,
            external: true,
            group: new.group.clone(),
            kind: new.kind.clone(),
            path: Some(path.to_owned()),
            plural: None,
            version: new.version.clone(),
            webhooks: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Webhooks;

    fn issuer(external_path: Option<&str>) -> NewWebhook {
        NewWebhook {
            group: "cert-manager".into(),
            version: "v1".into(),
            kind: "Issuer".into(),
            defaulting: true,
            external_path: external_path.map(str::to_owned),
            external_domain: Some("io".into()),
            ..NewWebhook::default()
        }
    }

    #[test]
    fn a_kind_named_by_its_module_is_recorded_external_with_its_domain_and_path() {
        let project = Project::new("webapp-operator", "example.com", None);
        let (after, resource) = project
            .with_webhook(&issuer(Some("cert_manager_types::v1")))
            .unwrap();
        assert!(resource.external && resource.api.is_none() && !resource.core);
        assert_eq!(resource.qualified_group(), "cert-manager.io");
        assert_eq!(resource.path.as_deref(), Some("cert_manager_types::v1"));
        assert!(resource.admission_webhooks());
        assert_eq!(after.resources, std::slice::from_ref(&resource));
        // Its last webhook deleted, the entry goes as it came.
        let (without, _) = after
            .without_webhook("cert-manager", "v1", "Issuer", Default::default())
            .unwrap();
        assert_eq!(without, project);
    }

    #[test]
    fn an_imported_external_kind_takes_webhooks_but_no_conversion() {
        let mut project = Project::new("webapp-operator", "example.com", None);
        project.resources.push(Resource {
            api: Some(crate::project::Api {
                crd_version: "v1".into(),
                namespaced: true,
            }),
            external: true,
            path: Some("webapp_operator_api::v1".into()),
            ..project_resource()
        });
        let (_, resource) = project.with_webhook(&issuer(None)).unwrap();
        assert_eq!(
            resource.webhooks,
            Some(Webhooks {
                defaulting: true,
                webhook_version: "v1".into(),
                ..Webhooks::default()
            })
        );
        let conversion = NewWebhook {
            defaulting: false,
            conversion: true,
            spokes: vec!["v2".into()],
            ..issuer(None)
        };
        assert_eq!(
            project.with_webhook(&conversion).unwrap_err(),
            WebhookRefused::ConversionOfExternalKind {
                kind: "Issuer".into(),
                version: "v1".into()
            }
        );
        // Another path for the kind the project has is refused, naming both.
        let elsewhere = project
            .with_webhook(&issuer(Some("other::v1")))
            .unwrap_err()
            .to_string();
        assert!(elsewhere.contains("\"other::v1\""), "{elsewhere}");
        assert!(
            elsewhere.contains("at webapp_operator_api::v1"),
            "{elsewhere}"
        );
    }

    fn project_resource() -> Resource {
        Resource {
            api: None,
            controller: false,
            controllers: Vec::new(),
            core: false,
            domain: "io".into(),
            external: false,
            group: "cert-manager".into(),
            kind: "Issuer".into(),
            path: None,
            plural: None,
            version: "v1".into(),
            webhooks: None,
        }
    }
}
