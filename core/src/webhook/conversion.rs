//! What a multi-version API implements for conversion (controller-runtime's
//! `conversion.Hub` and `conversion.Convertible`): one version is the hub, every other version
//! (a spoke) converts to and from it, and the conversion webhook converts spoke to spoke through
//! the hub. Always available: the API crate implements these without webop's runtime.

/// The version every conversion goes through, usually the storage version. A marker:
/// `impl webop::webhook::Hub for WebApp {}` in `api/src/v1/webapp_conversion.rs`.
pub trait Hub: kube_core::Resource<DynamicType = ()> {}

/// A version that converts to and from the hub `H`. The metadata of the converted object is
/// the source's whatever these return, except its labels and annotations (the only metadata
/// the API server lets a conversion change); copying `metadata` across is still the clear way.
pub trait Convertible<H: Hub>: Sized {
    /// This version as the hub.
    fn convert_to(&self) -> Result<H, ConversionError>;
    /// The hub as this version.
    fn convert_from(hub: &H) -> Result<Self, ConversionError>;
}

/// Why an object cannot be converted; the API server reports the message to the client.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConversionError {
    message: String,
}

impl ConversionError {
    /// A conversion failure explained by `message`, e.g. "spec.schedule: cannot be represented
    /// in v1".
    pub fn new(message: impl Into<String>) -> Self {
        ConversionError {
            message: message.into(),
        }
    }

    /// The explanation.
    pub fn message(&self) -> &str {
        &self.message
    }
}
