//! Kubeconfig files for the control plane's users: one text serves kubectl, the other
//! components and the `kube::Client` of the test, so they cannot disagree.

use std::path::Path;

use base64::Engine as _;
use serde_json::json;

use super::Error;
use super::certs::CertifiedKey;

/// A kubeconfig (JSON, which kubectl reads as YAML) for `user` with a client certificate.
pub fn render(server: &str, ca_pem: &str, user: &str, credentials: &CertifiedKey) -> String {
    let encode = |pem: &str| base64::engine::general_purpose::STANDARD.encode(pem);
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "envtest", "cluster": {
            "server": server,
            "certificate-authority-data": encode(ca_pem),
        }}],
        "users": [{"name": user, "user": {
            "client-certificate-data": encode(&credentials.cert_pem),
            "client-key-data": encode(&credentials.key_pem),
        }}],
        "contexts": [{"name": "envtest", "context": {"cluster": "envtest", "user": user}}],
        "current-context": "envtest",
    });
    serde_json::to_string_pretty(&config).expect("a JSON value serializes")
}

/// A `kube::Client` from a kubeconfig text (default namespace `default`).
pub async fn client(kubeconfig: &str) -> Result<kube::Client, Error> {
    let parsed = kube::config::Kubeconfig::from_yaml(kubeconfig)
        .map_err(|e| Error::Client(e.to_string()))?;
    let options = kube::config::KubeConfigOptions::default();
    let config = kube::Config::from_custom_kubeconfig(parsed, &options)
        .await
        .map_err(|e| Error::Client(e.to_string()))?;
    kube::Client::try_from(config).map_err(|e| Error::Client(e.to_string()))
}

/// Writes `text` to `path`.
pub fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}
