//! `config/webhook/manifests.yaml` from `#[webhook(...)]` and `#[webhook_configuration(...)]`,
//! as controller-gen v0.21's webhook generator writes it: one `MutatingWebhookConfiguration` and
//! one `ValidatingWebhookConfiguration` (each only when it has webhooks), webhooks sorted by
//! name, the Service `webhook-service` in `system` unless named.

use serde_json::{Map, Value, json};
/// The checked attributes are the model: one definition for the macro and the manifests.
pub use webop_attrs::webhook::{Configuration, Found, Webhook};

/// Two `#[webhook_configuration]`s for the same kind of configuration.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "two #[webhook_configuration]s name the {which} configuration: {first:?} and {second:?}; keep one"
)]
pub struct DuplicateConfiguration {
    pub which: &'static str,
    pub first: String,
    pub second: String,
}

const DEFAULT_SERVICE_NAME: &str = "webhook-service";
const DEFAULT_SERVICE_NAMESPACE: &str = "system";

/// The documents of `config/webhook/manifests.yaml` for `webhooks`: the mutating configuration
/// first, then the validating one; none without webhooks.
pub fn configuration_documents(
    webhooks: &[Webhook],
    configurations: &[Configuration],
) -> Result<Vec<Value>, DuplicateConfiguration> {
    let mut documents = Vec::new();
    for (mutating, kind, default_name) in [
        (
            true,
            "MutatingWebhookConfiguration",
            "mutating-webhook-configuration",
        ),
        (
            false,
            "ValidatingWebhookConfiguration",
            "validating-webhook-configuration",
        ),
    ] {
        let mut named = configurations.iter().filter(|c| c.mutating == mutating);
        let name = match (named.next(), named.next()) {
            (Some(first), Some(second)) => {
                return Err(DuplicateConfiguration {
                    which: if mutating { "mutating" } else { "validating" },
                    first: first.name.clone(),
                    second: second.name.clone(),
                });
            }
            (Some(only), None) => only.name.as_str(),
            _ => default_name,
        };
        let mut these: Vec<&Webhook> = webhooks.iter().filter(|w| w.mutating == mutating).collect();
        if these.is_empty() {
            continue;
        }
        these.sort_by(|a, b| a.name.cmp(&b.name));
        documents.push(json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": kind,
            "metadata": {"name": name},
            "webhooks": these.into_iter().map(webhook_json).collect::<Vec<_>>(),
        }));
    }
    Ok(documents)
}

/// A webhook as Go's admissionregistration/v1 types marshal it (empty optional fields left out).
fn webhook_json(webhook: &Webhook) -> Value {
    let mut out = Map::new();
    let mut put = |key: &str, value: Value| {
        out.insert(key.to_owned(), value);
    };
    put(
        "admissionReviewVersions",
        json!(webhook.admission_review_versions),
    );
    put("clientConfig", client_config(webhook));
    put("failurePolicy", json!(webhook.failure_policy));
    if let Some(policy) = &webhook.match_policy {
        put("matchPolicy", json!(policy));
    }
    put("name", json!(webhook.name));
    if webhook.mutating
        && let Some(policy) = &webhook.reinvocation_policy
    {
        put("reinvocationPolicy", json!(policy));
    }
    let mut rule = Map::new();
    for (key, values) in [
        ("apiGroups", &webhook.groups),
        ("apiVersions", &webhook.versions),
        ("operations", &webhook.verbs),
        ("resources", &webhook.resources),
    ] {
        if !values.is_empty() {
            rule.insert(key.to_owned(), json!(values));
        }
    }
    put("rules", json!([rule]));
    put("sideEffects", json!(webhook.side_effects));
    if let Some(seconds) = webhook.timeout_seconds {
        put("timeoutSeconds", json!(seconds));
    }
    Value::Object(out)
}

fn client_config(webhook: &Webhook) -> Value {
    let Some(path) = &webhook.path else {
        return json!({"url": webhook.url});
    };
    let mut service = json!({
        "name": webhook.service_name.as_deref().unwrap_or(DEFAULT_SERVICE_NAME),
        "namespace": webhook.service_namespace.as_deref().unwrap_or(DEFAULT_SERVICE_NAMESPACE),
        "path": path,
    });
    if let Some(port) = webhook.service_port {
        service["port"] = json!(port);
    }
    json!({"service": service})
}

#[cfg(test)]
mod tests;
