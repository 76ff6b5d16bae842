//! The TLS of the metrics and webhook servers, as controller-runtime sets it up: the
//! certificate and key from `--metrics-cert-path` / `--webhook-cert-path` (re-read when they
//! change, as cert-manager rotates them: controller-runtime's certwatcher), or a self-signed
//! certificate for `localhost` made at start. HTTP/1.1 only: kubebuilder's scaffold turns HTTP/2
//! off (Rapid Reset and stream-cancellation CVEs).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use super::{Error, Options};

/// How often a handshake may look at the certificate files for a change.
const RECHECK: Duration = Duration::from_secs(10);

/// ring's provider: it builds without the C toolchain aws-lc-rs needs. rustls 0.23.48 deprecates
/// it for its lack of post-quantum key exchange; these servers (metrics, webhooks) are reached
/// from inside the cluster, by clients that offer the classic groups too.
#[allow(deprecated)]
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn tls_error(what: impl std::fmt::Display) -> Error {
    Error::Tls(what.to_string())
}

/// Where a server's certificate comes from: `dir` (the `--*-cert-path` flag) holding `name`
/// and `key`, or a self-signed one without `dir`.
#[derive(Clone, Copy, Debug)]
pub struct CertificateSource<'a> {
    /// `metrics` or `webhook`, for the log lines.
    pub server: &'static str,
    pub dir: Option<&'a Path>,
    pub name: &'a str,
    pub key: &'a str,
}

impl<'a> CertificateSource<'a> {
    /// The metrics server's: `--metrics-cert-path`, `--metrics-cert-name`, `--metrics-cert-key`.
    pub fn metrics(options: &'a Options) -> Self {
        CertificateSource {
            server: "metrics",
            dir: options.metrics_cert_path.as_deref(),
            name: &options.metrics_cert_name,
            key: &options.metrics_cert_key,
        }
    }
}

/// A server's TLS acceptor, and the self-signed certificate (PEM) when it made one, for a
/// webhook configuration's `caBundle`.
pub fn acceptor(source: CertificateSource<'_>) -> Result<(TlsAcceptor, Option<String>), Error> {
    let provider = provider();
    let server = source.server;
    let (resolver, self_signed_pem): (Arc<dyn ResolvesServerCert>, _) = match source.dir {
        Some(dir) => {
            let watched = WatchedCertificate::load(
                server,
                dir.join(source.name),
                dir.join(source.key),
                provider.clone(),
            )?;
            (Arc::new(watched), None)
        }
        None => {
            tracing::info!(
                "no --{server}-cert-path: serving {server} with a self-signed certificate"
            );
            let (certified, pem) = self_signed(&provider)?;
            (Arc::new(Fixed(Arc::new(certified))), Some(pem))
        }
    };
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls_error)?
        .with_no_client_auth()
        .with_cert_resolver(resolver);
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok((TlsAcceptor::from(Arc::new(config)), self_signed_pem))
}

/// A self-signed certificate for `localhost` and `127.0.0.1`, as controller-runtime makes one
/// for metrics: it encrypts, and Prometheus' ServiceMonitor skips its verification. A webhook
/// configuration trusts it through its `caBundle` (the PEM returned beside it).
fn self_signed(provider: &CryptoProvider) -> Result<(CertifiedKey, String), Error> {
    let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    let generated = rcgen::generate_simple_self_signed(names).map_err(tls_error)?;
    let key = PrivatePkcs8KeyDer::from(generated.signing_key.serialize_der());
    let certified = CertifiedKey::from_der(
        vec![generated.cert.der().clone()],
        PrivateKeyDer::Pkcs8(key),
        provider,
    )
    .map_err(tls_error)?;
    Ok((certified, generated.cert.pem()))
}

/// The certificate chain and key in two PEM files.
fn load(cert: &Path, key: &Path, provider: &CryptoProvider) -> Result<CertifiedKey, Error> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| tls_error(format!("{}: {e}", path.display())))
    };
    let chain = CertificateDer::pem_slice_iter(&read(cert)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| tls_error(format!("{}: {e}", cert.display())))?;
    if chain.is_empty() {
        return Err(tls_error(format!("{}: no certificate", cert.display())));
    }
    let private_key = PrivateKeyDer::from_pem_slice(&read(key)?)
        .map_err(|e| tls_error(format!("{}: {e}", key.display())))?;
    CertifiedKey::from_der(chain, private_key, provider)
        .map_err(|e| tls_error(format!("{} and {}: {e}", cert.display(), key.display())))
}

/// One certificate for every handshake.
#[derive(Debug)]
struct Fixed(Arc<CertifiedKey>);

impl ResolvesServerCert for Fixed {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// The certificate of two files, loaded again when either changes.
#[derive(Debug)]
struct WatchedCertificate {
    server: &'static str,
    cert: PathBuf,
    key: PathBuf,
    provider: Arc<CryptoProvider>,
    current: Mutex<Current>,
}

#[derive(Debug)]
struct Current {
    certified: Arc<CertifiedKey>,
    modified: Option<(SystemTime, SystemTime)>,
    checked: Instant,
}

fn modified(cert: &Path, key: &Path) -> Option<(SystemTime, SystemTime)> {
    let time = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    Some((time(cert)?, time(key)?))
}

impl WatchedCertificate {
    fn load(
        server: &'static str,
        cert: PathBuf,
        key: PathBuf,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, Error> {
        let certified = Arc::new(load(&cert, &key, &provider)?);
        tracing::info!(cert = %cert.display(), key = %key.display(), "serving {server} with the certificate of --{server}-cert-path");
        let current = Current {
            modified: modified(&cert, &key),
            certified,
            checked: Instant::now(),
        };
        Ok(WatchedCertificate {
            server,
            cert,
            key,
            provider,
            current: Mutex::new(current),
        })
    }
}

impl ResolvesServerCert for WatchedCertificate {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current())
    }
}

impl WatchedCertificate {
    /// The certificate, loaded again if the files changed since the last look (at most every
    /// ten seconds).
    fn current(&self) -> Arc<CertifiedKey> {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if current.checked.elapsed() >= RECHECK {
            current.checked = Instant::now();
            let now = modified(&self.cert, &self.key);
            if now.is_some() && now != current.modified {
                match load(&self.cert, &self.key, &self.provider) {
                    Ok(certified) => {
                        tracing::info!(cert = %self.cert.display(), "reloaded the {} certificate", self.server);
                        current.certified = Arc::new(certified);
                        current.modified = now;
                    }
                    // Half-written during a rotation: keep serving the old one, look again later.
                    Err(error) => {
                        tracing::warn!(%error, "cannot reload the {} certificate", self.server)
                    }
                }
            }
        }
        current.certified.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a new self-signed certificate for `name` into `dir`, dated `age` seconds ago.
    fn write(dir: &Path, name: &str, age: u64) -> Vec<u8> {
        let generated = rcgen::generate_simple_self_signed(vec![name.to_owned()]).unwrap();
        let written = SystemTime::now() - Duration::from_secs(age);
        for (file, text) in [
            ("tls.crt", generated.cert.pem()),
            ("tls.key", generated.signing_key.serialize_pem()),
        ] {
            let path = dir.join(file);
            std::fs::write(&path, text).unwrap();
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(written)
                .unwrap();
        }
        generated.cert.der().to_vec()
    }

    #[tokio::test(start_paused = true)]
    async fn a_rotated_certificate_is_served_after_the_next_look() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), "first.example", 60);
        let watched = WatchedCertificate::load(
            "webhook",
            dir.path().join("tls.crt"),
            dir.path().join("tls.key"),
            provider(),
        )
        .unwrap();
        let served = |w: &WatchedCertificate| w.current().cert[0].to_vec();
        assert_eq!(served(&watched), first);

        let second = write(dir.path(), "second.example", 0);
        assert_eq!(served(&watched), first, "not looked at again yet");
        tokio::time::advance(RECHECK).await;
        assert_eq!(served(&watched), second);

        std::fs::write(dir.path().join("tls.key"), "half written").unwrap();
        tokio::time::advance(RECHECK).await;
        assert_eq!(
            served(&watched),
            second,
            "a broken pair keeps the last good one"
        );
    }

    #[test]
    fn missing_or_mismatched_files_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let missing = load(
            &dir.path().join("tls.crt"),
            &dir.path().join("tls.key"),
            &provider(),
        );
        assert!(missing.unwrap_err().to_string().contains("tls.crt"));
        write(dir.path(), "a.example", 0);
        let other = rcgen::generate_simple_self_signed(vec!["b.example".to_owned()]).unwrap();
        std::fs::write(
            dir.path().join("tls.key"),
            other.signing_key.serialize_pem(),
        )
        .unwrap();
        let mismatched = load(
            &dir.path().join("tls.crt"),
            &dir.path().join("tls.key"),
            &provider(),
        );
        assert!(mismatched.is_err());
        assert!(self_signed(&provider()).is_ok());
    }
}
