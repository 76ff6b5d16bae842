//! Webhooks: their manifests, and the runtime that serves them.
//!
//! - Always (an API crate uses webop without features): [`Hub`], [`Convertible`] and
//!   [`ConversionError`], what a multi-version API implements for conversion, and
//!   `config/webhook/manifests.yaml` from `#[webhook(...)]` attributes
//!   ([`configuration_documents`]).
//! - Feature `webhook` (the operator's manager): controller-runtime's typed admission traits
//!   (`CustomDefaulter`, `CustomValidator`) with `Denied` and `FieldError` shaped as the API
//!   server shows them, and `Webhooks`, what a manager serves over HTTPS
//!   (`Manager::with_webhooks`): AdmissionReview v1 at each webhook's path, ConversionReview v1
//!   at `/convert`. `docs/webhooks.md` is the guide.

mod conversion;
mod manifests;
#[cfg(feature = "scan")]
mod scan;

#[cfg(feature = "webhook")]
mod admission;
#[cfg(feature = "webhook")]
mod conversion_registration;
#[cfg(feature = "webhook")]
mod convert;
#[cfg(feature = "webhook")]
mod denied;
#[cfg(feature = "webhook")]
mod request;
#[cfg(feature = "webhook")]
mod webhooks;

pub use conversion::{ConversionError, Convertible, Hub};
pub use manifests::{
    Configuration, DuplicateConfiguration, Found, Webhook, configuration_documents,
};
#[cfg(feature = "scan")]
pub use scan::webhooks_in_dirs;

#[cfg(feature = "webhook")]
pub use admission::{CustomDefaulter, CustomValidator};
#[cfg(feature = "webhook")]
pub use conversion_registration::Conversion;
#[cfg(feature = "webhook")]
pub use denied::{Denied, FieldError, Warnings};
#[cfg(feature = "webhook")]
pub use request::{AdmissionInfo, UserInfo, admission_request};
#[cfg(feature = "webhook")]
pub use webhooks::{AdmissionWebhook, CONVERT_PATH, ReviewedKind, Webhooks};
