//! The certificates of a test control plane: one CA that signs the API server's serving
//! certificate and every client certificate (the API server trusts it with `--client-ca-file`),
//! and the service-account signing key. All are made fresh for each environment.

use std::net::{IpAddr, Ipv4Addr};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType,
};

use super::Error;

/// A certificate and its private key, PEM-encoded.
#[derive(Clone)]
pub struct CertifiedKey {
    /// The certificate.
    pub cert_pem: String,
    /// The private key (PKCS#8).
    pub key_pem: String,
}

impl std::fmt::Debug for CertifiedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertifiedKey").finish_non_exhaustive()
    }
}

/// The certificate authority of one environment.
pub struct Authority {
    issuer: Issuer<'static, KeyPair>,
    cert_pem: String,
}

impl std::fmt::Debug for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authority").finish_non_exhaustive()
    }
}

fn certificate_error(error: rcgen::Error) -> Error {
    Error::Certificate(error.to_string())
}

impl Authority {
    /// A new self-signed CA.
    pub fn new() -> Result<Self, Error> {
        let key = KeyPair::generate().map_err(certificate_error)?;
        let mut params = CertificateParams::default();
        params
            .distinguished_name
            .push(DnType::CommonName, "webop-envtest-ca");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let cert = params.self_signed(&key).map_err(certificate_error)?;
        Ok(Self {
            issuer: Issuer::new(params, key),
            cert_pem: cert.pem(),
        })
    }

    /// The CA certificate, for clients to trust the API server and the API server its clients.
    pub fn cert_pem(&self) -> &str {
        &self.cert_pem
    }

    /// A serving certificate for `localhost` and 127.0.0.1.
    pub fn serving(&self, common_name: &str) -> Result<CertifiedKey, Error> {
        let mut params =
            CertificateParams::new(vec!["localhost".to_owned()]).map_err(certificate_error)?;
        params
            .subject_alt_names
            .push(SanType::IpAddress(IpAddr::V4(Ipv4Addr::LOCALHOST)));
        params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        self.sign(params)
    }

    /// A client certificate: Kubernetes reads the user name from the common name and the group
    /// from the organization.
    pub fn client(&self, user: &str, group: Option<&str>) -> Result<CertifiedKey, Error> {
        let mut params = CertificateParams::default();
        params.distinguished_name.push(DnType::CommonName, user);
        if let Some(group) = group {
            params
                .distinguished_name
                .push(DnType::OrganizationName, group);
        }
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        self.sign(params)
    }

    fn sign(&self, mut params: CertificateParams) -> Result<CertifiedKey, Error> {
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        let key = KeyPair::generate().map_err(certificate_error)?;
        let cert = params
            .signed_by(&key, &self.issuer)
            .map_err(certificate_error)?;
        Ok(CertifiedKey {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        })
    }
}

/// The key pair that signs service-account tokens: the private key (PKCS#8) and the public
/// key, PEM-encoded. The API server reads no public key from a PKCS#8 private key file.
pub fn service_account_key() -> Result<(String, String), Error> {
    let key = KeyPair::generate().map_err(certificate_error)?;
    Ok((key.serialize_pem(), key.public_key_pem()))
}
