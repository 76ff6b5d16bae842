//! CRDs for a test environment: read from directories of YAML or JSON files (as
//! `CRDInstallOptions.Paths` does), installed with server-side apply, and waited for until the
//! API server serves every version.

use std::path::Path;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams};

use super::Error;

/// How long a CRD may take to be served.
const ESTABLISH_TIMEOUT: Duration = Duration::from_secs(30);

/// Every `CustomResourceDefinition` document in the `.yaml`, `.yml` and `.json` files of `dir`
/// (not recursive; other kinds of documents are skipped).
pub fn read_dir(dir: &Path) -> Result<Vec<CustomResourceDefinition>, Error> {
    if !dir.is_dir() {
        return Err(Error::MissingCrdDir(dir.to_owned()));
    }
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "yaml" || ext == "yml" || ext == "json")
        })
        .collect();
    paths.sort();
    let mut crds = Vec::new();
    for path in paths {
        crds.extend(read_file(&path)?);
    }
    Ok(crds)
}

fn read_file(path: &Path) -> Result<Vec<CustomResourceDefinition>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let invalid = |reason: String| Error::InvalidManifest {
        path: path.to_owned(),
        reason,
    };
    let documents: Vec<serde_json::Value> =
        serde_saphyr::from_multiple(&text).map_err(|e| invalid(e.to_string()))?;
    documents
        .into_iter()
        .filter(|document| document["kind"] == "CustomResourceDefinition")
        .map(|document| serde_json::from_value(document).map_err(|e| invalid(e.to_string())))
        .collect()
}

/// Installs `crds` and waits until each is `Established` and its versions are in discovery.
pub async fn install(
    client: &kube::Client,
    crds: &[CustomResourceDefinition],
) -> Result<(), Error> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let params = PatchParams::apply("webop-envtest").force();
    for crd in crds {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let mut object = crd.clone();
        object.metadata.resource_version = None;
        object.status = None;
        api.patch(&name, &params, &Patch::Apply(&object))
            .await
            .map_err(|e| Error::Install {
                object: format!("CRD {name}"),
                reason: e.to_string(),
            })?;
    }
    let deadline = tokio::time::Instant::now() + ESTABLISH_TIMEOUT;
    for crd in crds {
        while !served(client, &api, crd).await {
            if tokio::time::Instant::now() > deadline {
                return Err(Error::Install {
                    object: format!("CRD {}", crd.metadata.name.as_deref().unwrap_or_default()),
                    reason: format!("not established within {ESTABLISH_TIMEOUT:?}"),
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok(())
}

/// Whether the CRD is `Established` and each served version lists its plural in discovery.
async fn served(
    client: &kube::Client,
    api: &Api<CustomResourceDefinition>,
    crd: &CustomResourceDefinition,
) -> bool {
    let name = crd.metadata.name.as_deref().unwrap_or_default();
    let Ok(current) = api.get(name).await else {
        return false;
    };
    let established = current
        .status
        .and_then(|status| status.conditions)
        .unwrap_or_default()
        .iter()
        .any(|c| c.type_ == "Established" && c.status == "True");
    if !established {
        return false;
    }
    for version in crd.spec.versions.iter().filter(|v| v.served) {
        let group_version = format!("{}/{}", crd.spec.group, version.name);
        match client.list_api_group_resources(&group_version).await {
            Ok(list)
                if list
                    .resources
                    .iter()
                    .any(|r| r.name == crd.spec.names.plural) => {}
            _ => return false,
        }
    }
    true
}
