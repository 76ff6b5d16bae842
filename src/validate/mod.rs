//! `webop validate`: custom resources checked against CRDs offline, as the API server checks a
//! create. Each document is created as a dry run on the testkit's in-memory API server with the
//! CRDs installed, so the rules (structural schema, formats, defaults, CEL, list-map keys, name
//! rules) and the messages are the testkit's, the same ones its tests hold against a real
//! kube-apiserver.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

use webop_testkit::ApiServer;

/// Why a validator could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("CRD {name} cannot be installed: {message}")]
pub struct InstallError {
    pub name: String,
    pub message: String,
}

/// The verdict on one document.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The API server would take it; this is the object as it would store it (pruned and
    /// defaulted), without the fields the server itself fills in.
    Valid(Value),
    /// The API server's refusal, as `kubectl` shows it.
    Invalid(String),
    /// No CRD serves the document's kind.
    UnknownKind(String),
}

/// A kind the installed CRDs serve.
struct Served {
    group: String,
    kind: String,
    plural: String,
    namespaced: bool,
    versions: Vec<String>,
}

/// An in-memory API server that serves `crds`, for dry-run creates.
pub struct Validator {
    server: ApiServer,
    served: Vec<Served>,
}

impl Validator {
    pub fn new(crds: &[CustomResourceDefinition]) -> Result<Self, InstallError> {
        let server = ApiServer::new();
        let mut served = Vec::new();
        for crd in crds {
            server.install_crd(crd).map_err(|e| InstallError {
                name: crd.metadata.name.clone().unwrap_or_default(),
                message: e.message,
            })?;
            served.push(Served {
                group: crd.spec.group.clone(),
                kind: crd.spec.names.kind.clone(),
                plural: crd.spec.names.plural.clone(),
                namespaced: crd.spec.scope == "Namespaced",
                versions: crd.spec.versions.iter().map(|v| v.name.clone()).collect(),
            });
        }
        Ok(Validator { server, served })
    }

    /// Checks `document` as a create would; `strict` refuses unknown fields instead of pruning
    /// them (`fieldValidation=Strict`).
    pub fn check(&self, document: &Value, strict: bool) -> Verdict {
        let api_version = document["apiVersion"].as_str().unwrap_or_default();
        let kind = document["kind"].as_str().unwrap_or_default();
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let Some(served) = self.served.iter().find(|s| {
            s.group == group && s.kind == kind && s.versions.iter().any(|v| v == version)
        }) else {
            let known: Vec<String> = self
                .served
                .iter()
                .flat_map(|s| {
                    s.versions
                        .iter()
                        .map(move |v| format!("{}/{v} {}", s.group, s.kind))
                })
                .collect();
            return Verdict::UnknownKind(format!(
                "no CRD serves kind {kind:?} of apiVersion {api_version:?} (the CRDs serve: {})",
                if known.is_empty() {
                    "nothing".to_owned()
                } else {
                    known.join(", ")
                }
            ));
        };
        let namespace = served.namespaced.then(|| {
            document
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .unwrap_or("default")
        });
        match self
            .server
            .dry_run_create(document, &served.plural, namespace, strict)
        {
            Ok(stored) => Verdict::Valid(without_server_fields(stored)),
            Err(error) => Verdict::Invalid(error.message),
        }
    }
}

/// `object` without what the API server fills in itself (uid, resourceVersion, timestamps,
/// generation, managed fields): what the user's document becomes.
fn without_server_fields(mut object: Value) -> Value {
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        for field in [
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "generation",
            "managedFields",
        ] {
            metadata.remove(field);
        }
    }
    object
}

#[cfg(test)]
mod tests;
