//! Typed admission (controller-runtime's `CustomDefaulter` and `CustomValidator`) and how one
//! AdmissionReview request becomes its response: decode the object into `K`, call the
//! webhook, answer with a JSONPatch (defaulting) or an allowed/denied verdict with warnings
//! (validation), as controller-runtime's `defaulter_custom.go` and `validator_custom.go` do.

use std::collections::HashSet;
use std::marker::PhantomData;
use std::pin::Pin;

use json_patch::PatchOperation;
use json_patch::jsonptr::PointerBuf;

use kube_core::response::{Status, StatusSummary};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::denied::{Denied, Warnings};

/// Sets defaults that the CRD's schema cannot express. Called on CREATE and UPDATE (never on
/// DELETE); the runtime answers the API server with the JSONPatch from the object it received
/// to the object `default` leaves.
///
/// Implementors write `async fn default(&self, webapp: &mut WebApp) -> Result<(), Denied>`.
pub trait CustomDefaulter<K>: Send + Sync + 'static {
    /// Fills in the defaults of `object`; `Err` refuses the request.
    fn default(&self, object: &mut K) -> impl Future<Output = Result<(), Denied>> + Send;
}

/// Checks what the CRD's schema and CEL rules cannot (other objects, external state). `Ok`
/// admits with warnings for the client; `Err` refuses with a message the client sees.
pub trait CustomValidator<K>: Send + Sync + 'static {
    /// A new object.
    fn validate_create(&self, object: &K) -> impl Future<Output = Result<Warnings, Denied>> + Send;
    /// A change from `old` to `new`.
    fn validate_update(
        &self,
        old: &K,
        new: &K,
    ) -> impl Future<Output = Result<Warnings, Denied>> + Send;
    /// The deletion of `object` (as it is before the deletion).
    fn validate_delete(&self, object: &K) -> impl Future<Output = Result<Warnings, Denied>> + Send;
}

pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The parts of an AdmissionReview v1 request that webhooks read.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdmissionRequest {
    pub uid: String,
    pub kind: GroupVersionKind,
    #[serde(default)]
    pub name: String,
    pub operation: String,
    #[serde(default)]
    pub object: Option<Value>,
    #[serde(default)]
    pub old_object: Option<Value>,
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct GroupVersionKind {
    #[serde(default)]
    pub group: String,
    pub kind: String,
}

/// An AdmissionReview v1 response (`admission.k8s.io/v1` `AdmissionResponse`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AdmissionResponse {
    pub uid: String,
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The JSONPatch, base64 in the review's JSON.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "base64_patch"
    )]
    pub patch: Option<json_patch::Patch>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Warnings,
}

fn base64_patch<S: serde::Serializer>(
    patch: &Option<json_patch::Patch>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use base64::Engine;
    let bytes = serde_json::to_vec(patch).map_err(serde::ser::Error::custom)?;
    serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(bytes))
}

impl AdmissionResponse {
    /// Admitted, with `warnings` (controller-runtime's `Allowed("")`: code 200).
    pub fn allowed(warnings: Warnings) -> Self {
        AdmissionResponse {
            allowed: true,
            status: Some(Status {
                code: 200,
                ..Status::default()
            }),
            warnings,
            ..Self::default()
        }
    }

    /// Refused for `denied`, about `request`'s object.
    pub fn denied(denied: &Denied, request: &AdmissionRequest) -> Self {
        let name = match request.name.as_str() {
            "" => object_name(request.object.as_ref().or(request.old_object.as_ref())),
            name => name.to_owned(),
        };
        AdmissionResponse {
            allowed: false,
            status: Some(denied.status(&request.kind.group, &request.kind.kind, &name)),
            warnings: denied.warnings().to_vec(),
            ..Self::default()
        }
    }

    /// A request the webhook cannot handle (controller-runtime's `Errored`).
    pub fn errored(code: u16, message: impl Into<String>) -> Self {
        AdmissionResponse {
            allowed: false,
            status: Some(Status {
                status: Some(StatusSummary::Failure),
                code,
                message: message.into(),
                ..Status::default()
            }),
            ..Self::default()
        }
    }
}

fn object_name(object: Option<&Value>) -> String {
    object
        .and_then(|o| o.pointer("/metadata/name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// One admission webhook with its types erased: what the server and the testkit call.
pub(crate) trait Admit: Send + Sync {
    fn admit<'a>(&'a self, request: &'a AdmissionRequest) -> BoxFuture<'a, AdmissionResponse>;
}

/// `object` decoded as `K`; the message of controller-runtime's 400 otherwise.
fn decode<K: DeserializeOwned>(object: Option<&Value>, which: &str) -> Result<K, String> {
    let Some(object) = object else {
        return Err(format!("there is no content to decode in {which}"));
    };
    K::deserialize(object).map_err(|e| format!("{which}: {e}"))
}

/// A [`CustomDefaulter`] behind [`Admit`].
pub(crate) struct Defaulting<K, D> {
    pub defaulter: D,
    pub kind: PhantomData<fn() -> K>,
}

impl<K, D> Admit for Defaulting<K, D>
where
    K: Serialize + DeserializeOwned + Send + Sync + 'static,
    D: CustomDefaulter<K>,
{
    fn admit<'a>(&'a self, request: &'a AdmissionRequest) -> BoxFuture<'a, AdmissionResponse> {
        Box::pin(async move {
            // controller-runtime's custom defaulter skips deletions: nothing to default.
            if request.operation == "DELETE" {
                return AdmissionResponse::allowed(Vec::new());
            }
            let mut object: K = match decode(request.object.as_ref(), "object") {
                Ok(object) => object,
                Err(message) => return AdmissionResponse::errored(400, message),
            };
            let Some(raw) = request.object.as_ref() else {
                unreachable!("decoded above")
            };
            // A large object is held as little as possible: as JSON text while the typed copy
            // lives, and parsed one copy at a time beside the raw one (`defaulting_patch`).
            // Its peak is twice its parsed JSON, not twice that plus its typed copy.
            let decoded = to_text(&object);
            if let Err(denied) = self.defaulter.default(&mut object).await {
                return AdmissionResponse::denied(&denied, request);
            }
            let defaulted = to_text(&object);
            drop(object);
            let defaulted = from_text(&defaulted);
            let patch = defaulting_patch(raw, defaulted, || from_text(&decoded));
            let mut response = AdmissionResponse::allowed(Vec::new());
            if !patch.0.is_empty() {
                response.patch = Some(patch);
                response.patch_type = Some("JSONPatch");
            }
            response
        })
    }
}

/// `object` as JSON text.
fn to_text(object: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(object).unwrap_or_else(|_| b"null".to_vec())
}

/// JSON text [`to_text`] wrote, parsed.
fn from_text(text: &[u8]) -> Value {
    serde_json::from_slice(text).unwrap_or(Value::Null)
}

/// The removals that decoding alone causes, from the object the API server sent to the object
/// `K` decodes (fields `K` does not know, empty values it leaves out), by path.
pub(crate) struct RemovedByDecoding(HashSet<PointerBuf>);

impl RemovedByDecoding {
    pub(crate) fn between(raw: &Value, decoded: &Value) -> Self {
        let removals = json_patch::diff(raw, decoded).0.into_iter();
        RemovedByDecoding(
            removals
                .filter_map(|operation| match operation {
                    PatchOperation::Remove(remove) => Some(remove.path),
                    _ => None,
                })
                .collect(),
        )
    }
}

/// The patch from the object the API server sent (`raw`) to the defaulted one, without the
/// removals that decoding alone causes, as controller-runtime drops them: a webhook must not
/// strip what its type cannot represent. `decoded` (what `K` decoded, before the defaulter)
/// is made only when the patch removes anything, once `defaulted` is gone: a large object's
/// parsed JSON is held twice at most. Linear in the size of the objects: the removals are
/// looked up by path, not searched (an object with many unknown fields made that quadratic).
pub(crate) fn defaulting_patch(
    raw: &Value,
    defaulted: Value,
    decoded: impl FnOnce() -> Value,
) -> json_patch::Patch {
    let mut patch = json_patch::diff(raw, &defaulted);
    drop(defaulted);
    if patch
        .0
        .iter()
        .any(|operation| matches!(operation, PatchOperation::Remove(_)))
    {
        let removed = RemovedByDecoding::between(raw, &decoded());
        patch.0.retain(|operation| match operation {
            PatchOperation::Remove(remove) => !removed.0.contains(&remove.path),
            _ => true,
        });
    }
    patch
}

/// A [`CustomValidator`] behind [`Admit`].
pub(crate) struct Validating<K, V> {
    pub validator: V,
    pub kind: PhantomData<fn() -> K>,
}

impl<K, V> Admit for Validating<K, V>
where
    K: DeserializeOwned + Send + Sync + 'static,
    V: CustomValidator<K>,
{
    fn admit<'a>(&'a self, request: &'a AdmissionRequest) -> BoxFuture<'a, AdmissionResponse> {
        Box::pin(async move {
            let (object, old) = (request.object.as_ref(), request.old_object.as_ref());
            let verdict = match request.operation.as_str() {
                "CREATE" => match decode::<K>(object, "object") {
                    Ok(new) => self.validator.validate_create(&new).await,
                    Err(message) => return AdmissionResponse::errored(400, message),
                },
                "UPDATE" => {
                    let decoded = decode::<K>(object, "object")
                        .and_then(|new| Ok((decode::<K>(old, "oldObject")?, new)));
                    match decoded {
                        Ok((old, new)) => self.validator.validate_update(&old, &new).await,
                        Err(message) => return AdmissionResponse::errored(400, message),
                    }
                }
                // The object being deleted arrives as the old object.
                "DELETE" => match decode::<K>(old, "oldObject") {
                    Ok(old) => self.validator.validate_delete(&old).await,
                    Err(message) => return AdmissionResponse::errored(400, message),
                },
                "CONNECT" => Ok(Vec::new()),
                other => {
                    return AdmissionResponse::errored(400, format!("unknown operation {other:?}"));
                }
            };
            match verdict {
                Ok(warnings) => AdmissionResponse::allowed(warnings),
                Err(denied) => AdmissionResponse::denied(&denied, request),
            }
        })
    }
}

#[cfg(test)]
mod tests;
