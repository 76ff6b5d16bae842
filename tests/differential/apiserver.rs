//! Each generated CRD goes to a real kube-apiserver, which must accept or reject controller-gen's
//! and webop's versions alike.
//!
//! Both versions of a case carry the same name, so each is created with `dryRun=All`: the API
//! server runs its whole validation of a CRD (structural schema, defaults against the schema,
//! CEL compilation and cost, list-map keys) and stores nothing. The YAML is sent as it reads,
//! not through a typed model, so no field is lost on the way.

use kube::api::{Api, ApiResource, DynamicObject, PostParams};
use webop::crd::CustomResourceDefinition;

/// The API server's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    Accepted,
    Rejected(String),
}

/// Creates the CRD in `yaml` with `dryRun=All` and reports whether the API server takes it.
pub async fn admit(client: &kube::Client, yaml: &str) -> Admission {
    let value: serde_json::Value = serde_saphyr::from_str(yaml).expect("a CRD file is YAML");
    let object: DynamicObject = serde_json::from_value(value).expect("a CRD is an object");
    let crds: Api<DynamicObject> = Api::all_with(
        client.clone(),
        &ApiResource::erase::<CustomResourceDefinition>(&()),
    );
    let params = PostParams {
        dry_run: true,
        field_manager: None,
    };
    match crds.create(&params, &object).await {
        Ok(_) => Admission::Accepted,
        Err(kube::Error::Api(status)) if (400..500).contains(&status.code) => {
            Admission::Rejected(status.message)
        }
        Err(error) => panic!("the API server did not judge the CRD: {error}"),
    }
}
