//! [`Children`]: applies the objects a controller owns, exactly, and only when they drifted.

use std::fmt::Debug;

use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::api::{Patch, PatchParams};
use kube::core::object::HasStatus;
use kube::runtime::events::EventType;
use kube::{Api, Client, Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::drift::{Drift, at_path};
use super::events::{one_line, publish, single_line};
use super::status::write_own_status;
use crate::EventRecorder;

/// What [`Children::apply`] did to a child.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// It did not exist: created.
    Created,
    /// It differed from the desired object (the owner's spec changed, or someone edited it):
    /// updated.
    Updated,
    /// It was exactly the desired object: no request was sent.
    Unchanged,
}

/// A child as [`Children::apply`] left it: the API server's answer, or the cached copy when
/// nothing was sent.
#[derive(Debug, Clone)]
pub struct Applied<K> {
    pub object: K,
    pub change: Change,
}

/// Why a child could not be applied. Its `Display` is one line a person can read.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// An object of that name exists and another object (or nobody) controls it: never taken
    /// over.
    #[error("{kind} {name} exists and is not controlled by this {owner}: {reason}")]
    NotControlled {
        kind: String,
        name: String,
        owner: String,
        reason: String,
    },
    /// The API server refused the object (422): the desired object is invalid.
    #[error("{kind} {name} is invalid: {message}")]
    Invalid {
        kind: String,
        name: String,
        message: String,
    },
    /// Any other failure (connection, permission, conflict on the repair): retried.
    #[error("cannot apply {kind} {name}: {message}")]
    Failed {
        kind: String,
        name: String,
        message: String,
    },
    /// The owner lacks what a controller reference needs (name, uid, namespace).
    #[error("the {0} has no name, uid or namespace yet")]
    Owner(String),
}

impl ApplyError {
    /// A `CamelCase` reason for conditions and events.
    pub fn reason(&self) -> &'static str {
        match self {
            ApplyError::NotControlled { .. } => "NotControlled",
            ApplyError::Invalid { .. } => "InvalidChild",
            ApplyError::Failed { .. } => "ApplyFailed",
            ApplyError::Owner(_) => "InvalidObject",
        }
    }
}

/// The reference that makes `owner` the controller of a child: the child is deleted with it
/// (garbage collection), and `blockOwnerDeletion` holds a foreground deletion of the owner until
/// the child is gone. controller-runtime: `controllerutil.SetControllerReference`.
pub fn controller_reference<O: Resource<DynamicType = ()>>(owner: &O) -> Option<OwnerReference> {
    let mut reference = owner.controller_owner_ref(&())?;
    reference.block_owner_deletion = Some(true);
    Some(reference)
}

/// The owner of a child, as [`Children::apply_controlled`] needs it.
pub(crate) struct Controller {
    /// The owner's kind, in errors.
    pub(crate) kind: String,
    /// The controller reference the child carries.
    pub(crate) reference: OwnerReference,
    /// The owner's namespace, the child's too.
    pub(crate) namespace: String,
}

/// Applies owned children with server-side apply as one field manager. Cheap to clone.
///
/// controller-runtime: `controllerutil.SetControllerReference` + `client.Patch(ctx, child,
/// client.Apply, client.FieldOwner(name), client.ForceOwnership)`, reporting an
/// `OperationResult` as `controllerutil.CreateOrPatch` does.
///
/// It also writes the owner's status and records events about it, as the same field manager
/// (`Manager::children` makes one).
#[derive(Clone)]
pub struct Children {
    client: Client,
    field_manager: &'static str,
    recorder: EventRecorder,
}

impl Children {
    /// Children applied as `field_manager` (also the name their managed fields carry, and the
    /// reporter of the events recorded with `recorder`).
    pub fn new(client: Client, field_manager: &'static str, recorder: EventRecorder) -> Self {
        Children {
            client,
            field_manager,
            recorder,
        }
    }

    /// Writes `status` to `owner`'s status subresource unless it is the status `owner` has:
    /// see [`write_status`](super::write_status).
    pub async fn write_status<O>(&self, owner: &O, status: &O::Status) -> Result<bool, kube::Error>
    where
        O: Resource<DynamicType = ()> + HasStatus,
        O::Status: PartialEq + Serialize,
    {
        write_own_status(self.client.clone(), owner, status, self.field_manager).await
    }

    /// Records a `Warning` event `reason` on `regarding` (a failed reconcile, say).
    pub async fn warn<O: Resource<DynamicType = ()>>(
        &self,
        regarding: &O,
        reason: &str,
        note: &impl std::fmt::Display,
    ) {
        let note = note.to_string();
        publish(
            &self.recorder,
            regarding,
            EventType::Warning,
            reason,
            note,
            None,
        )
        .await;
    }

    /// Records an event on `regarding`: see [`publish`].
    pub async fn publish<O: Resource<DynamicType = ()>>(
        &self,
        regarding: &O,
        type_: EventType,
        reason: &str,
        note: String,
        related: Option<ObjectReference>,
    ) {
        publish(&self.recorder, regarding, type_, reason, note, related).await;
    }

    /// The field manager.
    pub fn field_manager(&self) -> &'static str {
        self.field_manager
    }

    /// Brings the child named by `desired` to exactly `desired`, controlled by `owner`.
    ///
    /// `cached` is the child as a cache of this field manager's children holds it (see
    /// [`crate::ControllerKit::owns_compact`], which keeps the apply entries of managed fields):
    /// - `None`: applied without force, so an object of that name with another manager's fields
    ///   is a conflict ([`ApplyError::NotControlled`]) rather than taken over;
    /// - controlled by another object: [`ApplyError::NotControlled`], nothing sent;
    /// - exactly the desired object ([`Drift`]): nothing sent, [`Change::Unchanged`];
    /// - otherwise a forced apply, recorded as an `Updated` event on the owner: fields the owner no longer sets go, fields someone else
    ///   changed or removed come back. Lists where someone added items first get replaced whole
    ///   (a merge patch guarded by the cached resourceVersion), as apply cannot remove another
    ///   manager's items; the ownership that patch leaves to this field manager's `Update` entry
    ///   is then dropped, so the next apply still removes what the owner stops setting.
    pub async fn apply<O, K>(
        &self,
        owner: &O,
        desired: K,
        cached: Option<K>,
    ) -> Result<Applied<K>, ApplyError>
    where
        O: Resource<DynamicType = ()>,
        K: Resource<DynamicType = (), Scope = NamespaceResourceScope>
            + Clone
            + Debug
            + Serialize
            + DeserializeOwned,
    {
        let kind = O::kind(&()).into_owned();
        let (Some(reference), Some(namespace)) = (controller_reference(owner), owner.namespace())
        else {
            return Err(ApplyError::Owner(kind));
        };
        let controller = Controller {
            kind,
            reference,
            namespace,
        };
        let applied = self.apply_controlled(controller, desired, cached).await?;
        if applied.change == Change::Updated {
            // One event per child, about it: the recorder would fold a second child's note into
            // the first one's series.
            let (kind, name) = (K::kind(&()), applied.object.name_any());
            let note = format!("Updated {kind} {name} to the desired state");
            let related = applied.object.object_ref(&());
            publish(
                &self.recorder,
                owner,
                EventType::Normal,
                "Updated",
                note,
                Some(related),
            )
            .await;
        }
        Ok(applied)
    }

    /// [`Children::apply`] but for its event, generic over the child alone: an operator's crate
    /// reuses the instances [`crate::common_kinds`] compiled for the kinds children most often are.
    pub(crate) async fn apply_controlled<K>(
        &self,
        controller: Controller,
        mut desired: K,
        cached: Option<K>,
    ) -> Result<Applied<K>, ApplyError>
    where
        K: Resource<DynamicType = (), Scope = NamespaceResourceScope>
            + Clone
            + Debug
            + Serialize
            + DeserializeOwned,
    {
        let Controller {
            kind: owner_kind,
            reference,
            namespace,
        } = controller;
        desired.meta_mut().namespace = Some(namespace.clone());
        desired.meta_mut().owner_references = Some(vec![reference.clone()]);
        let (kind, name) = (K::kind(&()).into_owned(), desired.name_any());
        let failed = |message: String| ApplyError::Failed {
            kind: kind.clone(),
            name: name.clone(),
            message,
        };
        let api = Api::<K>::namespaced(self.client.clone(), &namespace);
        let desired_json = serde_json::to_value(&desired).map_err(|e| failed(e.to_string()))?;

        if let Some(cached) = &cached {
            let controller = cached
                .owner_references()
                .iter()
                .find(|r| r.controller == Some(true));
            if controller.is_none_or(|c| c.uid != reference.uid) {
                return Err(ApplyError::NotControlled {
                    kind,
                    name,
                    owner: owner_kind,
                    reason: "its controller is another object".to_owned(),
                });
            }
            let live = serde_json::to_value(cached).map_err(|e| failed(e.to_string()))?;
            let drift = Drift::of(&desired_json, &live, self.field_manager);
            if drift.in_sync {
                return Ok(Applied {
                    object: cached.clone(),
                    change: Change::Unchanged,
                });
            }
            if !drift.foreign_lists.is_empty() {
                let patch = replacing(&desired_json, &drift.foreign_lists, cached);
                let params = PatchParams {
                    field_manager: Some(self.field_manager.to_owned()),
                    ..PatchParams::default()
                };
                api.patch(&name, &params, &Patch::Merge(&patch))
                    .await
                    .map_err(|e| failed(one_line(&e)))?;
            }
        }

        let mut params = PatchParams::apply(self.field_manager);
        params.force = cached.is_some();
        let applied = api
            .patch(&name, &params, &Patch::Apply(&desired))
            .await
            .map_err(|error| match &error {
                kube::Error::Api(status) if status.code == 409 && cached.is_none() => {
                    ApplyError::NotControlled {
                        kind: kind.clone(),
                        name: name.clone(),
                        owner: owner_kind.clone(),
                        reason: single_line(&status.message),
                    }
                }
                // The API server allows one controller reference: another object controls it.
                kube::Error::Api(status)
                    if status.code == 422 && status.message.contains("Controller set to true") =>
                {
                    ApplyError::NotControlled {
                        kind: kind.clone(),
                        name: name.clone(),
                        owner: owner_kind.clone(),
                        reason: single_line(&status.message),
                    }
                }
                kube::Error::Api(status) if status.code == 422 => ApplyError::Invalid {
                    kind: kind.clone(),
                    name: name.clone(),
                    message: single_line(&status.message),
                },
                _ => failed(one_line(&error)),
            })?;
        let object = self
            .drop_update_entry(&api, applied)
            .await
            .map_err(|e| failed(one_line(&e)))?;
        let change = match cached {
            None => Change::Created,
            Some(_) => Change::Updated,
        };
        Ok(Applied { object, change })
    }

    /// Removes this field manager's `Update` entry from `object`'s managed fields, if a repair
    /// left one: the fields it co-owns would outlive the owner's next apply without them.
    async fn drop_update_entry<K>(&self, api: &Api<K>, object: K) -> Result<K, kube::Error>
    where
        K: Resource + Clone + Debug + Serialize + DeserializeOwned,
    {
        let entries = object.managed_fields();
        let ours = |e: &&_| {
            let e: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry = e;
            e.manager.as_deref() == Some(self.field_manager)
                && e.operation.as_deref() == Some("Update")
                && e.subresource.is_none()
        };
        if !entries.iter().any(|e| ours(&e)) {
            return Ok(object);
        }
        let kept: Vec<_> = entries.iter().filter(|e| !ours(e)).collect();
        let patch = json!({"metadata": {
            "resourceVersion": object.resource_version(),
            "managedFields": kept,
        }});
        api.patch(
            &object.name_any(),
            &PatchParams::default(),
            &Patch::Merge(&patch),
        )
        .await
    }
}

/// A merge patch that replaces each of `lists` by the desired one, guarded by the cached
/// resourceVersion (a 409 if the child changed since, and the next reconcile looks again).
fn replacing<K: Resource>(desired: &Value, lists: &[Vec<String>], cached: &K) -> Value {
    let mut patch = json!({"metadata": {"resourceVersion": cached.resource_version()}});
    for path in lists {
        let value = at_path(desired, path).cloned().unwrap_or(Value::Null);
        let mut node = &mut patch;
        for (i, field) in path.iter().enumerate() {
            if i + 1 == path.len() {
                node[field.as_str()] = value.clone();
            } else {
                if !node.get(field.as_str()).is_some_and(Value::is_object) {
                    node[field.as_str()] = json!({});
                }
                node = &mut node[field.as_str()];
            }
        }
    }
    patch
}
