//! A defaulting webhook for ConfigMaps and the reviews it is sent, for core's tests and its
//! `defaulting` bench.

// Each target that includes this module uses a part of it.
#![allow(dead_code)]

use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::{Value, json};
use webop_core::webhook::{CustomDefaulter, Denied, Webhooks};

/// Where [`webhooks`] serves its defaulter.
pub const MUTATE: &str = "/mutate--v1-configmap";

/// Gives every ConfigMap a `defaulted` key.
pub struct Defaulter;

impl CustomDefaulter<ConfigMap> for Defaulter {
    async fn default(&self, config: &mut ConfigMap) -> Result<(), Denied> {
        let data = config.data.get_or_insert_default();
        data.insert("defaulted".into(), "yes".into());
        Ok(())
    }
}

/// The defaulter at [`MUTATE`].
pub fn webhooks() -> Webhooks {
    Webhooks::new().defaulter::<ConfigMap, _>(Defaulter)
}

/// An AdmissionReview of `api_version` creating `object`.
pub fn review(api_version: &str, object: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": api_version, "kind": "AdmissionReview",
        "request": {
            "uid": "u-1", "operation": "CREATE", "name": "web",
            "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "object": object,
        },
    }))
    .expect("a review serializes")
}

/// A ConfigMap named `web`.
pub fn config_map() -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}})
}
