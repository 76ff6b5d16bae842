//! Admission webhooks in the testkit (features `testkit` + `webhook`): writes of a kind with
//! registered [`Webhooks`] go through them in the API server's order: the mutating webhooks
//! (their JSONPatch applied), then the CRD schema (pruning, defaulting, validation), then the
//! validating webhooks, then the store. Deletes go through the validating webhooks. The
//! reviews are the bytes the HTTPS server would receive ([`Webhooks::handle`]); denials and
//! warnings reach the client as the API server words them.
//!
//! Which webhooks are called: the defaulter and validator registered for the kind, on CREATE
//! and UPDATE (and the validator on DELETE), as kubebuilder's scaffolded markers select them,
//! plus DELETE; `/status` and `/scale` writes are not admitted (the markers name the main
//! resource only). A webhook of another version than the request's gets the object converted
//! to its version (matchPolicy `Equivalent`), as the API server converts it.

use base64::Engine;
use serde_json::{Value, json};

use super::handlers::{
    self, ADMISSION_RETRY, ADMISSION_STOP, AdmissionStage, Reply, Request, StopAt,
};
use super::objects;
use super::request::Verb;
use super::state::Shared;
use super::status::{ApiError, ApiResult};
use super::store::ObjectKey;
use webop_core::webhook::{AdmissionWebhook, Webhooks};

/// How often a write starts over when its object changed between stages.
const ATTEMPTS: usize = 5;

/// A write or delete on a kind with admission webhooks, and what they said.
pub(super) struct Admitted<'a> {
    shared: &'a Shared,
    webhooks: std::sync::Arc<Webhooks>,
    hooks: Vec<AdmissionWebhook>,
    /// The apiVersion of the request, e.g. `app.example.com/v2`.
    api_version: String,
    /// Warnings of every webhook called, in order, for the response's `Warning` headers.
    pub warnings: Vec<String>,
}

enum Staged {
    Done(Reply),
    Stopped(Value, Option<Value>),
    Retry,
}

impl<'a> Admitted<'a> {
    /// The admission of `request`, if its kind has webhooks and it writes the main resource.
    pub fn of(shared: &'a Shared, request: &Request) -> Option<Self> {
        let target = &request.target;
        let writes = matches!(
            request.verb,
            Verb::Create | Verb::Update | Verb::Patch | Verb::Delete
        );
        if !writes || target.subresource.is_some() {
            return None;
        }
        let state = shared.lock();
        let webhooks = state.webhooks.clone()?;
        let resource_type = state
            .catalog
            .find(&target.group, &target.version, &target.plural)?;
        let hooks: Vec<AdmissionWebhook> = webhooks
            .admission_webhooks()
            .into_iter()
            .filter(|h| h.group == resource_type.group && h.kind == resource_type.kind)
            .collect();
        if hooks.is_empty() {
            return None;
        }
        Some(Admitted {
            shared,
            webhooks,
            hooks,
            api_version: resource_type.api_version(&target.version),
            warnings: Vec::new(),
        })
    }

    /// Runs `request` through the webhooks and the store.
    pub async fn run(&mut self, request: Request) -> ApiResult<Reply> {
        if request.verb == Verb::Delete {
            return self.delete(request).await;
        }
        let dry_run = request.query.dry_run();
        for _ in 0..ATTEMPTS {
            let mut staged = request.clone();
            staged.admission = Some(AdmissionStage {
                stop: Some(StopAt::BeforeSchema),
                ..AdmissionStage::default()
            });
            let (candidate, old) = match self.stage(&staged)? {
                Staged::Done(reply) => return Ok(reply),
                Staged::Stopped(candidate, old) => (candidate, old),
                Staged::Retry => continue,
            };
            let expected_old = Some(
                old.as_ref()
                    .and_then(|o| objects::meta_str(o, "resourceVersion"))
                    .map(str::to_owned),
            );
            let operation = if old.is_some() { "UPDATE" } else { "CREATE" };
            let mut mutated = candidate;
            for hook in self.hooks.clone().iter().filter(|h| h.mutating) {
                mutated = self
                    .call(hook, operation, Some(&mutated), old.as_ref(), dry_run)
                    .await?;
            }
            staged.admission = Some(AdmissionStage {
                replace: Some(mutated),
                stop: Some(StopAt::AfterSchema),
                expected_old: expected_old.clone(),
            });
            let (validated, old) = match self.stage(&staged)? {
                Staged::Done(reply) => return Ok(reply),
                Staged::Stopped(validated, old) => (validated, old),
                Staged::Retry => continue,
            };
            for hook in self.hooks.clone().iter().filter(|h| !h.mutating) {
                self.call(hook, operation, Some(&validated), old.as_ref(), dry_run)
                    .await?;
            }
            staged.admission = Some(AdmissionStage {
                replace: Some(validated),
                stop: None,
                expected_old,
            });
            match self.stage(&staged)? {
                Staged::Done(reply) => return Ok(reply),
                Staged::Stopped(..) | Staged::Retry => continue,
            }
        }
        Err(ApiError::unprocessable(format!(
            "the object changed {ATTEMPTS} times while its admission webhooks ran; try again"
        )))
    }

    /// A delete: the validating webhooks see the object as it is (`oldObject`), then the
    /// delete runs as without webhooks.
    async fn delete(&mut self, request: Request) -> ApiResult<Reply> {
        let current = {
            let state = self.shared.lock();
            let target = &request.target;
            let resource_type = state
                .catalog
                .find(&target.group, &target.version, &target.plural)
                .cloned();
            resource_type.and_then(|rt| {
                let name = target.name.as_deref().unwrap_or_default();
                let key = ObjectKey::of(&rt, target.namespace.as_deref(), name);
                state.store.get(&key).cloned()
            })
        };
        if let Some(current) = current {
            let current = self.at(&current, &self.api_version.clone())?;
            let dry_run = request.query.dry_run();
            for hook in self.hooks.clone().iter().filter(|h| !h.mutating) {
                self.call(hook, "DELETE", None, Some(&current), dry_run)
                    .await?;
            }
        }
        handlers::handle(&mut self.shared.lock(), &request)
    }

    fn stage(&self, request: &Request) -> ApiResult<Staged> {
        let mut state = self.shared.lock();
        state.admission_stop = None;
        match handlers::handle(&mut state, request) {
            Ok(reply) => Ok(Staged::Done(reply)),
            Err(error) if error.reason == ADMISSION_STOP => match state.admission_stop.take() {
                Some((object, old)) => Ok(Staged::Stopped(object, old)),
                None => Err(ApiError::internal("the admission stage left no object")),
            },
            Err(error) if error.reason == ADMISSION_RETRY => Ok(Staged::Retry),
            Err(error) => Err(error),
        }
    }

    /// `object` at `api_version`: through the kind's conversion if it has one, else by its
    /// apiVersion alone (a CRD without a conversion webhook).
    fn at(&self, object: &Value, api_version: &str) -> ApiResult<Value> {
        match self.webhooks.convert(object, api_version) {
            Some(Ok(converted)) => Ok(converted),
            Some(Err(error)) => Err(ApiError::conversion_failed(object, error)),
            None => {
                let mut object = object.clone();
                object["apiVersion"] = json!(api_version);
                Ok(object)
            }
        }
    }

    /// Calls `hook` and returns the object it admitted (patched by a mutating one), at the
    /// request's version; a denial is the error the API server returns.
    async fn call(
        &mut self,
        hook: &AdmissionWebhook,
        operation: &str,
        object: Option<&Value>,
        old: Option<&Value>,
        dry_run: bool,
    ) -> ApiResult<Value> {
        let hook_version = if hook.group.is_empty() {
            hook.version.clone()
        } else {
            format!("{}/{}", hook.group, hook.version)
        };
        let object = object.map(|o| self.at(o, &hook_version)).transpose()?;
        let old = old.map(|o| self.at(o, &hook_version)).transpose()?;
        let about = object
            .as_ref()
            .or(old.as_ref())
            .cloned()
            .unwrap_or(Value::Null);
        let review = json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": format!("testkit-{}", self.warnings.len()),
                "kind": {"group": hook.group, "version": hook.version, "kind": hook.kind},
                "name": objects::meta_str(&about, "name").unwrap_or_default(),
                "namespace": objects::meta_str(&about, "namespace"),
                "operation": operation,
                "userInfo": {"username": "webop-testkit"},
                "object": object, "oldObject": old, "dryRun": dry_run,
            },
        });
        let name = webhook_name(hook);
        let body = serde_json::to_vec(&review).unwrap_or_default();
        let Some((200, answer)) = self.webhooks.handle(&hook.path, &body).await else {
            return Err(ApiError::internal(format!(
                "Internal error occurred: failed calling webhook {name:?}: no review answered at {}",
                hook.path
            )));
        };
        let response = &answer["response"];
        if let Some(warnings) = response["warnings"].as_array() {
            let texts = warnings.iter().filter_map(Value::as_str).map(str::to_owned);
            self.warnings.extend(texts);
        }
        if response["allowed"] != true {
            return Err(denial(&name, &response["status"]));
        }
        let mut admitted = object.unwrap_or(Value::Null);
        if let Some(patch) = response["patch"].as_str() {
            let patch = base64::engine::general_purpose::STANDARD
                .decode(patch)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<json_patch::Patch>(&bytes).ok())
                .ok_or_else(|| {
                    ApiError::internal(format!(
                        "webhook {name:?} sent a patch that is no JSONPatch"
                    ))
                })?;
            json_patch::patch(&mut admitted, &patch).map_err(|e| {
                ApiError::internal(format!("the patch of webhook {name:?} does not apply: {e}"))
            })?;
        }
        if admitted.is_null() {
            return Ok(admitted);
        }
        self.at(&admitted, &self.api_version.clone())
    }
}

/// kubebuilder's webhook names: `mwebapp-v1.kb.io`, `vwebapp-v1.kb.io`.
fn webhook_name(hook: &AdmissionWebhook) -> String {
    let prefix = if hook.mutating { "m" } else { "v" };
    format!(
        "{prefix}{}-{}.kb.io",
        hook.kind.to_lowercase(),
        hook.version
    )
}

/// The error the API server returns for a webhook's denial (apiserver's `webhookerrors.
/// ToStatusErr`): the webhook's status, its message after `admission webhook "<name>" denied
/// the request: `, a code of at least 400.
fn denial(name: &str, status: &Value) -> ApiError {
    let message = status["message"].as_str().unwrap_or_default();
    let reason = status["reason"].as_str().unwrap_or_default();
    let denied_by = format!("admission webhook {name:?} denied the request");
    let message = match (message, reason) {
        ("", "") => format!("{denied_by} without explanation"),
        ("", reason) => format!("{denied_by}: {reason}"),
        (message, _) => format!("{denied_by}: {message}"),
    };
    let code = status["code"].as_u64().map_or(400, |c| c.max(400)) as u16;
    let mut error = match reason {
        "Invalid" => ApiError::unprocessable(message),
        "Forbidden" => ApiError::forbidden(message),
        "BadRequest" => ApiError::bad_request(message),
        _ => ApiError::unclassified(message),
    };
    error.code = code;
    error.details = status.get("details").cloned();
    error
}
