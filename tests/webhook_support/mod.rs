//! A WebApp API in two versions with the webhooks a kubebuilder tutorial gives it, for the
//! webhook tests: v1 (the hub) is defaulted (one replica) and validated (at most 10 replicas,
//! a warning above 5, protected objects cannot be deleted); v2 (a spoke) splits the image into
//! repository and tag.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use webop::webhook::{
    ConversionError, Convertible, CustomDefaulter, CustomValidator, Denied, FieldError, Hub,
    Warnings, Webhooks,
};

pub mod v1 {
    use webop::prelude::*;

    /// WebAppSpec defines the desired state of WebApp
    #[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[resource(group = "app.example.com", version = "v1", kind = "WebApp")]
    #[storage_version]
    #[serde(rename_all = "camelCase")]
    pub struct WebAppSpec {
        /// image is the container image, `repository[:tag]`.
        pub image: String,
        /// replicas is the number of pods; the webhook defaults it to 1.
        pub replicas: Option<i32>,
    }
}

pub mod v2 {
    use webop::prelude::*;

    /// WebAppSpec defines the desired state of WebApp
    #[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[resource(group = "app.example.com", version = "v2", kind = "WebApp")]
    #[serde(rename_all = "camelCase")]
    pub struct WebAppSpec {
        /// image is the container image.
        pub image: Image,
        /// replicas is the number of pods.
        pub replicas: Option<i32>,
    }

    /// An image by repository and tag.
    #[derive(Schema, Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct Image {
        pub repository: String,
        pub tag: Option<String>,
    }
}

impl Hub for v1::WebApp {}

impl Convertible<v1::WebApp> for v2::WebApp {
    fn convert_to(&self) -> Result<v1::WebApp, ConversionError> {
        let image = &self.spec.image;
        let image = match &image.tag {
            Some(tag) if tag.contains(':') => {
                return Err(ConversionError::new(format!(
                    "spec.image.tag {tag:?} cannot be written as a v1 image"
                )));
            }
            Some(tag) => format!("{}:{tag}", image.repository),
            None => image.repository.clone(),
        };
        let spec = v1::WebAppSpec {
            image,
            replicas: self.spec.replicas,
        };
        Ok(v1::WebApp {
            metadata: self.metadata.clone(),
            spec,
        })
    }

    fn convert_from(hub: &v1::WebApp) -> Result<Self, ConversionError> {
        let (repository, tag) = match hub.spec.image.rsplit_once(':') {
            Some((repository, tag)) => (repository.to_owned(), Some(tag.to_owned())),
            None => (hub.spec.image.clone(), None),
        };
        let spec = v2::WebAppSpec {
            image: v2::Image { repository, tag },
            replicas: hub.spec.replicas,
        };
        Ok(v2::WebApp {
            metadata: hub.metadata.clone(),
            spec,
        })
    }
}

pub struct WebAppCustomDefaulter;

impl CustomDefaulter<v1::WebApp> for WebAppCustomDefaulter {
    async fn default(&self, webapp: &mut v1::WebApp) -> Result<(), Denied> {
        webapp.spec.replicas.get_or_insert(1);
        Ok(())
    }
}

pub struct WebAppCustomValidator;

fn validate(webapp: &v1::WebApp) -> Result<Warnings, Denied> {
    let replicas = webapp.spec.replicas.unwrap_or(1);
    if replicas > 10 {
        let error = FieldError::invalid("spec.replicas", replicas, "must be at most 10");
        return Err(Denied::invalid(vec![error])
            .with_warnings(vec!["replicas above 10 need a bigger node pool".to_owned()]));
    }
    if replicas > 5 {
        return Ok(vec![format!("{replicas} replicas: consider an autoscaler")]);
    }
    Ok(Vec::new())
}

impl CustomValidator<v1::WebApp> for WebAppCustomValidator {
    async fn validate_create(&self, webapp: &v1::WebApp) -> Result<Warnings, Denied> {
        validate(webapp)
    }

    async fn validate_update(
        &self,
        old: &v1::WebApp,
        new: &v1::WebApp,
    ) -> Result<Warnings, Denied> {
        if old.spec.image != new.spec.image && new.spec.image.is_empty() {
            return Err(Denied::invalid(vec![FieldError::required(
                "spec.image",
                "an image cannot be removed",
            )]));
        }
        validate(new)
    }

    async fn validate_delete(&self, webapp: &v1::WebApp) -> Result<Warnings, Denied> {
        let labels = webapp.metadata.labels.clone().unwrap_or_default();
        if labels.get("protected").map(String::as_str) == Some("true") {
            return Err(Denied::forbidden(format!(
                "{} is protected: remove its `protected` label first",
                webapp.metadata.name.as_deref().unwrap_or_default()
            )));
        }
        Ok(Vec::new())
    }
}

/// The CRD of both versions, v1 stored.
pub fn crd()
-> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    let versions = [v1::WebApp::crd_version(), v2::WebApp::crd_version()];
    webop::crd::assemble(versions).unwrap().remove(0)
}

/// The `#[webhook]` attributes of the generated webhook module, as kubebuilder names them.
pub fn manifests() -> Vec<webop::webhook::Webhook> {
    let webhook =
        |mutating: bool, name: &str, path: &str, verbs: &[&str]| webop::webhook::Webhook {
            mutating,
            name: name.to_owned(),
            path: Some(path.to_owned()),
            failure_policy: "Fail".to_owned(),
            side_effects: "None".to_owned(),
            groups: vec!["app.example.com".to_owned()],
            resources: vec!["webapps".to_owned()],
            versions: vec!["v1".to_owned()],
            verbs: verbs.iter().map(|v| (*v).to_owned()).collect(),
            admission_review_versions: vec!["v1".to_owned()],
            ..webop::webhook::Webhook::default()
        };
    vec![
        webhook(
            true,
            "mwebapp-v1.kb.io",
            "/mutate-app-example-com-v1-webapp",
            &["CREATE", "UPDATE"],
        ),
        webhook(
            false,
            "vwebapp-v1.kb.io",
            "/validate-app-example-com-v1-webapp",
            &["CREATE", "UPDATE", "DELETE"],
        ),
    ]
}

/// Every webhook of the WebApp API, as a generated `src/webhook/mod.rs` chains them.
pub fn webhooks() -> Webhooks {
    Webhooks::new()
        .defaulter::<v1::WebApp, _>(WebAppCustomDefaulter)
        .validator::<v1::WebApp, _>(WebAppCustomValidator)
        .conversion::<v1::WebApp>()
        .spoke::<v2::WebApp>()
        .done()
}
