//! [`Webhooks`]: what a manager serves (controller-runtime's webhook builder and server mux),
//! and the one entry point, [`Webhooks::handle`], that the HTTPS server and the testkit share.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::admission::{
    AdmissionRequest, AdmissionResponse, Admit, CustomDefaulter, CustomValidator, Defaulting,
    Validating,
};
use super::convert::{self, KindConversion};
use super::request::AdmissionInfo;

/// Where the conversion webhook is served (controller-runtime's `/convert`).
pub const CONVERT_PATH: &str = "/convert";

/// The webhooks a manager serves: defaulting and validating webhooks at controller-runtime's
/// paths (or paths of their own: [`Webhooks::defaulter_at`]), conversions at `/convert`. Cheap
/// to clone.
///
/// ```ignore
/// let webhooks = Webhooks::new()
///     .defaulter::<WebApp, _>(WebAppCustomDefaulter)
///     .validator::<WebApp, _>(WebAppCustomValidator)
///     .conversion::<v1::WebApp>().spoke::<v2::WebApp>().done();
/// ```
///
/// Registering a second defaulter (or validator) for the same kind and version, or a version
/// twice for conversion, panics at start with the path or version named: it is a wiring
/// mistake, as controller-runtime's duplicate-path registration is.
#[derive(Clone, Default)]
pub struct Webhooks {
    admission: BTreeMap<String, Registered>,
    pub(super) conversions: Vec<KindConversion>,
}

#[derive(Clone)]
struct Registered {
    mutating: bool,
    group: String,
    version: String,
    kind: String,
    plural: String,
    handler: Arc<dyn Admit>,
}

/// One registered admission webhook, as the testkit looks them up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmissionWebhook {
    /// Its path, e.g. `/mutate-app-example-com-v1-webapp`.
    pub path: String,
    /// A defaulting (mutating) webhook, else a validating one.
    pub mutating: bool,
    /// The API group of its kind.
    pub group: String,
    /// The version its objects are decoded as.
    pub version: String,
    /// Its kind.
    pub kind: String,
    /// The resource of its kind (`pods`, `webapps`), which a webhook configuration's rules name.
    pub plural: String,
}

impl std::fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhooks")
            .field("paths", &self.paths())
            .finish()
    }
}

/// What a kind must be for its objects to be reviewed: a Kubernetes resource of a static type
/// that (de)serializes. Every generated API type is one.
pub trait ReviewedKind:
    kube_core::Resource<DynamicType = ()> + Serialize + DeserializeOwned + Clone + Send + Sync + 'static
{
}

impl<K> ReviewedKind for K where
    K: kube_core::Resource<DynamicType = ()>
        + Serialize
        + DeserializeOwned
        + Clone
        + Send
        + Sync
        + 'static
{
}

/// controller-runtime's path: `/<prefix>-<group with '.'→'-'>-<version>-<lowercase kind>`.
fn path_of<K: kube_core::Resource<DynamicType = ()>>(prefix: &str) -> String {
    format!(
        "/{prefix}-{}-{}-{}",
        K::group(&()).replace('.', "-"),
        K::version(&()),
        K::kind(&()).to_lowercase()
    )
}

impl Webhooks {
    /// No webhooks yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn register<K: kube_core::Resource<DynamicType = ()>>(
        mut self,
        path: String,
        mutating: bool,
        handler: Arc<dyn Admit>,
    ) -> Self {
        if !path.starts_with('/') {
            panic!("the webhook path {path:?} does not start with `/`");
        }
        let registered = Registered {
            mutating,
            group: K::group(&()).into_owned(),
            version: K::version(&()).into_owned(),
            kind: K::kind(&()).into_owned(),
            plural: K::plural(&()).into_owned(),
            handler,
        };
        if self.admission.insert(path.clone(), registered).is_some() {
            panic!(
                "two webhooks for the path {path}: register one defaulter and one validator per kind and version"
            );
        }
        self
    }

    /// Serves `defaulter` at `/mutate-<group with '.'→'-'>-<version>-<lowercase kind>`.
    pub fn defaulter<K, D>(self, defaulter: D) -> Self
    where
        K: ReviewedKind,
        D: CustomDefaulter<K>,
    {
        self.defaulter_at::<K, D>(&path_of::<K>("mutate"), defaulter)
    }

    /// Serves `defaulter` at `path` (controller-runtime's `WithDefaulterCustomPath`, what
    /// kubebuilder's `--defaulting-path` writes); its `#[webhook(path = ...)]` names the same.
    ///
    /// # Panics
    /// When `path` does not start with `/`, or another webhook is served there.
    pub fn defaulter_at<K, D>(self, path: &str, defaulter: D) -> Self
    where
        K: ReviewedKind,
        D: CustomDefaulter<K>,
    {
        let kind = PhantomData;
        let handler = Arc::new(Defaulting { defaulter, kind });
        self.register::<K>(path.to_owned(), true, handler)
    }

    /// Serves `validator` at `/validate-<group with '.'→'-'>-<version>-<lowercase kind>`.
    pub fn validator<K, V>(self, validator: V) -> Self
    where
        K: ReviewedKind,
        V: CustomValidator<K>,
    {
        self.validator_at::<K, V>(&path_of::<K>("validate"), validator)
    }

    /// Serves `validator` at `path` (controller-runtime's `WithValidatorCustomPath`, what
    /// kubebuilder's `--validation-path` writes); its `#[webhook(path = ...)]` names the same.
    ///
    /// # Panics
    /// When `path` does not start with `/`, or another webhook is served there.
    pub fn validator_at<K, V>(self, path: &str, validator: V) -> Self
    where
        K: ReviewedKind,
        V: CustomValidator<K>,
    {
        let kind = PhantomData;
        let handler = Arc::new(Validating { validator, kind });
        self.register::<K>(path.to_owned(), false, handler)
    }

    /// Every path served: the admission webhooks', then `/convert` if anything converts.
    pub fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self.admission.keys().cloned().collect();
        if !self.conversions.is_empty() {
            paths.push(CONVERT_PATH.to_owned());
        }
        paths
    }

    /// Whether nothing is registered.
    pub fn is_empty(&self) -> bool {
        self.admission.is_empty() && self.conversions.is_empty()
    }

    /// The admission webhooks, by path.
    pub fn admission_webhooks(&self) -> Vec<AdmissionWebhook> {
        let webhook = |(path, r): (&String, &Registered)| AdmissionWebhook {
            path: path.clone(),
            mutating: r.mutating,
            group: r.group.clone(),
            version: r.version.clone(),
            kind: r.kind.clone(),
            plural: r.plural.clone(),
        };
        self.admission.iter().map(webhook).collect()
    }

    /// Whether `/convert` converts the kind `kind` of `group`.
    pub fn converts(&self, group: &str, kind: &str) -> bool {
        self.conversions
            .iter()
            .any(|c| c.group == group && c.kind == kind)
    }

    /// `object` as the apiVersion `desired`, by the conversion registered for its kind (what
    /// `/convert` does for one object, without the review around it): `None` when its kind
    /// has no conversion; the object itself when it already is at `desired`.
    pub fn convert(
        &self,
        object: &Value,
        desired: &str,
    ) -> Option<Result<Value, super::ConversionError>> {
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
        let kind = object["kind"].as_str().unwrap_or_default();
        let conversion = self
            .conversions
            .iter()
            .find(|c| c.group == group && c.kind == kind)?;
        if api_version == desired {
            return Some(Ok(object.clone()));
        }
        Some(conversion.convert(object, desired))
    }

    /// Answers the review `body` posted to `path`: the HTTP status and the JSON body, or
    /// `None` when nothing is served at `path`. A body that is no review gets a 400; every
    /// review gets a 200 with its verdict inside, as the API server expects.
    pub async fn handle(&self, path: &str, body: &[u8]) -> Option<(u16, Value)> {
        if path == CONVERT_PATH && !self.conversions.is_empty() {
            return Some(match convert::review(&self.conversions, body) {
                Some(review) => (200, review),
                None => (
                    400,
                    json!({"error": "the body is no ConversionReview with a request"}),
                ),
            });
        }
        let registered = self.admission.get(path)?;
        let Ok(mut review) = serde_json::from_slice::<Value>(body) else {
            return Some((400, json!({"error": "the body is not JSON"})));
        };
        let api_version = match review_version(&review) {
            Ok(version) => version,
            Err(message) => return Some(reply(ADMISSION_V1.to_owned(), bad_request(message))),
        };
        // Taken, not cloned: the object in it may be megabytes.
        let Some(request) = review.get_mut("request").map(Value::take) else {
            let message = "the AdmissionReview has no request".to_owned();
            return Some(reply(api_version, bad_request(message)));
        };
        // Reads the small fields only; the objects stay where they are.
        let info = AdmissionInfo::deserialize(&request).unwrap_or_default();
        let request = match AdmissionRequest::deserialize(request) {
            Ok(request) => request,
            Err(error) => {
                let message = format!("the AdmissionReview's request: {error}");
                return Some(reply(api_version, bad_request(message)));
            }
        };
        let response = match registered.foreign_object(&request) {
            Some(message) => bad_request(message),
            None => {
                let admitted = registered.handler.admit(&request);
                super::request::scoped(info, admitted).await
            }
        };
        Some(reply(
            api_version,
            AdmissionResponse {
                uid: request.uid,
                ..response
            },
        ))
    }
}

/// The AdmissionReview versions answered, as controller-runtime's admission scheme registers
/// them; a review without `apiVersion` is taken as v1, as its decoder defaults it.
const ADMISSION_V1: &str = "admission.k8s.io/v1";
const ADMISSION_VERSIONS: [&str; 2] = [ADMISSION_V1, "admission.k8s.io/v1beta1"];

/// The review's `apiVersion`, if it is an AdmissionReview of a known version; otherwise the
/// message of controller-runtime's 400 (`no kind "AdmissionReview" is registered for ...`).
fn review_version(review: &Value) -> Result<String, String> {
    let version = review["apiVersion"].as_str().unwrap_or(ADMISSION_V1);
    let kind = review["kind"].as_str().unwrap_or("AdmissionReview");
    if kind == "AdmissionReview" && ADMISSION_VERSIONS.contains(&version) {
        return Ok(version.to_owned());
    }
    Err(format!(
        "no kind {kind:?} is registered for version {version:?}: expected an AdmissionReview \
         of {}",
        ADMISSION_VERSIONS.join(" or ")
    ))
}

impl Registered {
    /// Why the request's object (or old object) is not of this webhook's kind, if it is not:
    /// controller-runtime's decoder refuses to decode another kind into the webhook's type,
    /// and so must we, or a Pod would be admitted by a WebApp's webhook and patched into a
    /// WebApp. A missing `apiVersion` or `kind` is taken as the webhook's, as its decoder does.
    fn foreign_object(&self, request: &AdmissionRequest) -> Option<String> {
        let expected = if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        };
        let objects = [
            ("object", &request.object),
            ("oldObject", &request.old_object),
        ];
        objects.into_iter().find_map(|(which, object)| {
            let object = object.as_ref()?;
            let api_version = object["apiVersion"].as_str().unwrap_or(&expected);
            let kind = object["kind"].as_str().unwrap_or(&self.kind);
            (api_version != expected || kind != self.kind).then(|| {
                format!(
                    "{which}: unable to decode {api_version}, Kind={kind} into {expected}, \
                     Kind={}: this webhook admits {} only",
                    self.kind, self.kind
                )
            })
        })
    }
}

fn bad_request(message: String) -> AdmissionResponse {
    AdmissionResponse::errored(400, message)
}

/// The review around `response`, in the version the request came in.
fn reply(api_version: String, response: AdmissionResponse) -> (u16, Value) {
    let review = json!({
        "apiVersion": api_version,
        "kind": "AdmissionReview",
        "response": response,
    });
    (200, review)
}
