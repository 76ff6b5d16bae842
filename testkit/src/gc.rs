//! Deletion and garbage collection: finalizers hold an object with a deletionTimestamp until
//! they are removed; dependents follow their owners through `ownerReferences` (background,
//! foreground, orphan); namespaces empty themselves before they go; deleting a CRD removes its
//! objects. The API server does the collecting asynchronously; here it runs to completion
//! before the deleting request returns, so tests see a settled state.

use serde_json::{Value, json};

use super::objects::{self, finalizers, is_deleting, meta_str};
use super::state::State;
use super::store::{ChangeKind, ObjectKey};

const FOREGROUND: &str = "foregroundDeletion";

/// `propagationPolicy` of a delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    /// Delete the owner now, dependents after.
    Background,
    /// Delete dependents first; the owner waits with the `foregroundDeletion` finalizer.
    Foreground,
    /// Keep dependents, removing their owner references.
    Orphan,
}

/// What a delete did.
#[derive(Debug)]
pub enum Outcome {
    /// The object remains, with a deletionTimestamp, until its finalizers are removed.
    Pending(Value),
    /// The object is gone.
    Deleted(Value),
}

fn uid(object: &Value) -> String {
    meta_str(object, "uid").unwrap_or_default().to_string()
}

fn owner_uids(object: &Value) -> Vec<(String, bool)> {
    object
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map(|refs| {
            refs.iter()
                .filter_map(|r| {
                    Some((
                        r.get("uid")?.as_str()?.to_string(),
                        r.get("blockOwnerDeletion") == Some(&Value::Bool(true)),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Deletes an object with a propagation policy, then collects garbage.
pub fn delete(state: &mut State, key: &ObjectKey, policy: Propagation) -> Outcome {
    let outcome = delete_one(state, key, policy);
    collect(state);
    match outcome {
        Outcome::Pending(object) => match state.store.get(key) {
            Some(current) => Outcome::Pending(current.clone()),
            None => Outcome::Deleted(object),
        },
        deleted => deleted,
    }
}

fn mark_deleting(object: &mut Value) {
    if !is_deleting(object) {
        object["metadata"]["deletionTimestamp"] = json!(objects::now());
        object["metadata"]["deletionGracePeriodSeconds"] = json!(0);
        if let Some(generation) = object
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
        {
            object["metadata"]["generation"] = json!(generation + 1);
        }
    }
}

fn delete_one(state: &mut State, key: &ObjectKey, policy: Propagation) -> Outcome {
    let Some(mut object) = state.store.get(key).cloned() else {
        return Outcome::Deleted(Value::Null);
    };
    let owner = uid(&object);
    if policy == Propagation::Orphan {
        orphan_dependents(state, &owner);
    }
    let is_namespace = key.group.is_empty() && key.plural == "namespaces";
    if is_namespace {
        object["status"] = json!({"phase": "Terminating"});
    }
    let mut held = !finalizers(&object).is_empty() || is_namespace;
    if policy == Propagation::Foreground && has_dependents(state, &owner) {
        let mut list = finalizers(&object);
        if !list.iter().any(|f| f == FOREGROUND) {
            list.push(FOREGROUND.to_string());
        }
        object["metadata"]["finalizers"] = json!(list);
        held = true;
    }
    if held {
        let before = state.store.get(key).cloned();
        mark_deleting(&mut object);
        let stored = if before.as_ref() == Some(&object) {
            object
        } else {
            state
                .store
                .commit(ChangeKind::Modified, key.clone(), object)
        };
        if is_namespace {
            empty_namespace(state, &key.name);
        }
        return Outcome::Pending(stored);
    }
    let stored = state.store.commit(ChangeKind::Deleted, key.clone(), object);
    after_removal(state, key, &stored);
    Outcome::Deleted(stored)
}

/// What follows an object's removal from the store, however it happened (a delete, or the
/// last finalizer going): a CRD takes its kind and objects with it.
pub fn after_removal(state: &mut State, key: &ObjectKey, removed: &Value) {
    if key.group == "apiextensions.k8s.io" && key.plural == "customresourcedefinitions" {
        remove_custom_type(state, removed);
    }
}

fn has_dependents(state: &State, owner: &str) -> bool {
    state
        .store
        .all()
        .any(|(_, o)| owner_uids(o).iter().any(|(u, _)| u == owner))
}

fn orphan_dependents(state: &mut State, owner: &str) {
    let dependents: Vec<(ObjectKey, Value)> = state
        .store
        .all()
        .filter(|(_, o)| owner_uids(o).iter().any(|(u, _)| u == owner))
        .map(|(k, o)| (k.clone(), o.clone()))
        .collect();
    for (key, mut object) in dependents {
        if let Some(refs) = object
            .pointer_mut("/metadata/ownerReferences")
            .and_then(Value::as_array_mut)
        {
            refs.retain(|r| r.get("uid").and_then(Value::as_str) != Some(owner));
            if refs.is_empty() {
                object["metadata"]
                    .as_object_mut()
                    .map(|m| m.remove("ownerReferences"));
            }
        }
        state.store.commit(ChangeKind::Modified, key, object);
    }
}

fn empty_namespace(state: &mut State, namespace: &str) {
    let contents: Vec<ObjectKey> = state
        .store
        .all()
        .filter(|(k, _)| k.namespace == namespace)
        .map(|(k, _)| k.clone())
        .collect();
    for key in contents {
        if state.store.get(&key).is_some_and(|o| !is_deleting(o)) {
            delete_one(state, &key, Propagation::Background);
        }
    }
}

fn remove_custom_type(state: &mut State, crd: &Value) {
    let Some(group) = crd.pointer("/spec/group").and_then(Value::as_str) else {
        return;
    };
    let Some(plural) = crd.pointer("/spec/names/plural").and_then(Value::as_str) else {
        return;
    };
    state.catalog.uninstall(group, plural);
    let instances: Vec<(ObjectKey, Value)> = state
        .store
        .range(group, plural, None, None)
        .map(|(k, o)| (k.clone(), o.clone()))
        .collect();
    for (key, object) in instances {
        state.store.commit(ChangeKind::Deleted, key, object);
    }
    // Watchers saw every object go; then their streams end, as the kind is no longer served.
    state.store.drop_watches_of(group, plural);
}

enum Action {
    Delete(ObjectKey, Propagation),
    DropOwners(ObjectKey, Vec<String>),
    Release(ObjectKey),
    Remove(ObjectKey),
}

/// Runs the garbage collector to a fixed point.
pub fn collect(state: &mut State) {
    loop {
        let actions = plan(state);
        if actions.is_empty() {
            return;
        }
        for action in actions {
            apply(state, action);
        }
    }
}

fn plan(state: &State) -> Vec<Action> {
    let mut actions = Vec::new();
    for (key, object) in state.store.all() {
        let owners = owner_uids(object);
        if !owners.is_empty() && !is_deleting(object) {
            let live: Vec<&Value> = owners
                .iter()
                .filter_map(|(u, _)| state.store.key_of_uid(u))
                .filter_map(|k| state.store.get(k))
                .collect();
            let dangling: Vec<String> = owners
                .iter()
                .filter(|(u, _)| state.store.key_of_uid(u).is_none())
                .map(|(u, _)| u.clone())
                .collect();
            let foreground_owner = live
                .iter()
                .any(|o| is_deleting(o) && finalizers(o).iter().any(|f| f == FOREGROUND));
            if live.is_empty() {
                actions.push(Action::Delete(key.clone(), Propagation::Background));
            } else if foreground_owner {
                actions.push(Action::Delete(key.clone(), Propagation::Foreground));
            } else if !dangling.is_empty() {
                actions.push(Action::DropOwners(key.clone(), dangling));
            }
        }
        if is_deleting(object) && finalizers(object).iter().any(|f| f == FOREGROUND) {
            let owner = uid(object);
            let blocked = state
                .store
                .all()
                .any(|(_, o)| owner_uids(o).iter().any(|(u, block)| *u == owner && *block));
            if !blocked {
                actions.push(Action::Release(key.clone()));
            }
        }
        if key.group.is_empty()
            && key.plural == "namespaces"
            && is_deleting(object)
            && !state.store.all().any(|(k, _)| k.namespace == key.name)
        {
            actions.push(Action::Remove(key.clone()));
        }
    }
    actions
}

fn apply(state: &mut State, action: Action) {
    match action {
        Action::Delete(key, policy) => {
            delete_one(state, &key, policy);
        }
        Action::DropOwners(key, dangling) => {
            let Some(mut object) = state.store.get(&key).cloned() else {
                return;
            };
            if let Some(refs) = object
                .pointer_mut("/metadata/ownerReferences")
                .and_then(Value::as_array_mut)
            {
                refs.retain(|r| {
                    r.get("uid")
                        .and_then(Value::as_str)
                        .is_none_or(|u| !dangling.iter().any(|d| d == u))
                });
            }
            state.store.commit(ChangeKind::Modified, key, object);
        }
        Action::Release(key) => {
            let Some(mut object) = state.store.get(&key).cloned() else {
                return;
            };
            let remaining: Vec<String> = finalizers(&object)
                .into_iter()
                .filter(|f| f != FOREGROUND)
                .collect();
            if remaining.is_empty() {
                object["metadata"]
                    .as_object_mut()
                    .map(|m| m.remove("finalizers"));
                state.store.commit(ChangeKind::Deleted, key, object);
            } else {
                object["metadata"]["finalizers"] = json!(remaining);
                state.store.commit(ChangeKind::Modified, key, object);
            }
        }
        Action::Remove(key) => {
            if let Some(object) = state.store.get(&key).cloned() {
                state.store.commit(ChangeKind::Deleted, key, object);
            }
        }
    }
}
