//! Conditions and the status subresource.

use futures::FutureExt;
use futures::future::BoxFuture;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use kube::api::{ApiResource, DynamicObject, Patch, PatchParams};
use kube::core::object::HasStatus;
use kube::{Api, Client, Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A condition of `type_` for the object's `generation`, `True` or `False`, stamped now (the
/// time counts only when the status flips, see [`set_condition`]).
pub fn condition(
    type_: &str,
    status: bool,
    reason: &str,
    message: impl Into<String>,
    generation: Option<i64>,
) -> Condition {
    Condition {
        type_: type_.to_owned(),
        status: if status { "True" } else { "False" }.to_owned(),
        reason: reason.to_owned(),
        message: message.into(),
        observed_generation: generation,
        last_transition_time: Time(k8s_openapi::jiff::Timestamp::now()),
    }
}

/// Sets `new` in `conditions`, replacing the one of its type. `lastTransitionTime` changes only
/// when the status does; reason, message and observedGeneration follow `new`. Returns whether
/// anything changed. controller-runtime: `meta.SetStatusCondition`.
pub fn set_condition(conditions: &mut Vec<Condition>, new: Condition) -> bool {
    match conditions.iter_mut().find(|c| c.type_ == new.type_) {
        None => {
            conditions.push(new);
            true
        }
        Some(current) => {
            let since = if current.status == new.status {
                current.last_transition_time.clone()
            } else {
                new.last_transition_time.clone()
            };
            let new = Condition {
                last_transition_time: since,
                ..new
            };
            let changed = *current != new;
            *current = new;
            changed
        }
    }
}

/// The condition of `type_`, if set. controller-runtime: `meta.FindStatusCondition`.
pub fn find_condition<'a>(conditions: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == type_)
}

/// Writes `status` to `object`'s status subresource with server-side apply as `field_manager`,
/// unless it equals `current` (the status the object already has): an unchanged status costs
/// no request, and writing one would start an endless loop of watch events and reconciles.
/// Returns whether it wrote. controller-runtime: `client.Status().Patch(ctx, obj,
/// client.Apply, client.FieldOwner(name), client.ForceOwnership)`, after comparing.
pub async fn write_status<K, S>(
    api: &Api<K>,
    object: &K,
    current: Option<&S>,
    status: &S,
    field_manager: &str,
) -> Result<bool, kube::Error>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug,
    S: PartialEq + Serialize,
{
    if current == Some(status) {
        return Ok(false);
    }
    let params = PatchParams::apply(field_manager).force();
    api.patch_status(
        &object.name_any(),
        &params,
        &Patch::Apply(&status_patch::<K>(status)),
    )
    .await?;
    Ok(true)
}

/// The server-side apply patch of `status` to an object of kind `K`.
fn status_patch<K: Resource<DynamicType = ()>>(status: &impl Serialize) -> Value {
    json!({
        "apiVersion": K::api_version(&()),
        "kind": K::kind(&()),
        "status": status,
    })
}

/// [`write_status`] of `owner`'s status, with the request made for any kind
/// ([`apply_status`]).
pub(crate) async fn write_own_status<O>(
    client: Client,
    owner: &O,
    status: &O::Status,
    field_manager: &'static str,
) -> Result<bool, kube::Error>
where
    O: Resource<DynamicType = ()> + HasStatus,
    O::Status: PartialEq + Serialize,
{
    if owner.status() == Some(status) {
        return Ok(false);
    }
    let resource = ApiResource::erase::<O>(&());
    let patch = status_patch::<O>(status);
    let (namespace, name) = (owner.namespace(), owner.name_any());
    apply_status(client, resource, namespace, name, patch, field_manager).await?;
    Ok(true)
}

/// [`write_status`]'s request, for an object of any kind (`resource`), so that its code (the
/// request, the JSON of the object it returns) is compiled once, here.
fn apply_status(
    client: Client,
    resource: ApiResource,
    namespace: Option<String>,
    name: String,
    patch: Value,
    field_manager: &'static str,
) -> BoxFuture<'static, Result<(), kube::Error>> {
    async move {
        let api: Api<DynamicObject> = match &namespace {
            Some(namespace) => Api::namespaced_with(client, namespace, &resource),
            None => Api::all_with(client, &resource),
        };
        let params = PatchParams::apply(field_manager).force();
        api.patch_status(&name, &params, &Patch::Apply(&patch))
            .await
            .map(drop)
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64, mut condition: Condition) -> Condition {
        condition.last_transition_time =
            Time(k8s_openapi::jiff::Timestamp::from_second(seconds).unwrap());
        condition
    }

    #[test]
    fn the_transition_time_moves_only_when_the_status_flips() {
        let mut conditions = Vec::new();
        let ready = |status, message: &str| condition("Ready", status, "Why", message, Some(1));
        assert!(set_condition(&mut conditions, at(10, ready(false, "a"))));
        assert!(!set_condition(&mut conditions, at(20, ready(false, "a"))));
        assert!(set_condition(&mut conditions, at(30, ready(false, "b"))));
        assert_eq!(
            conditions[0].last_transition_time,
            at(10, ready(false, "")).last_transition_time
        );
        assert_eq!(conditions[0].message, "b");
        assert!(set_condition(&mut conditions, at(40, ready(true, "b"))));
        assert_eq!(
            conditions[0].last_transition_time,
            at(40, ready(true, "")).last_transition_time
        );
        assert_eq!(conditions.len(), 1);
        assert_eq!(find_condition(&conditions, "Ready").unwrap().status, "True");
    }
}
