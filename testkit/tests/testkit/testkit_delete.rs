//! Deletion: finalizers holding objects, owner-reference garbage collection with each
//! propagation policy, and what a delete answers (namespace lifecycle: testkit_namespaces.rs).
//! Every test is a `scenario!`: the same body runs on the testkit (which collects garbage inside
//! the deleting request) and on a real kube-apiserver with kube-controller-manager (whose
//! collectors act a moment later, so the body waits for outcomes instead of expecting them at
//! once).

use crate::testkit_common;

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::api::{
    Api, DeleteParams, ObjectMeta, Patch, PatchParams, PostParams, Preconditions,
    PropagationPolicy, WatchEvent, WatchParams,
};
use kube::runtime::wait::await_condition;
use kube::{Resource, ResourceExt};
use serde_json::json;
use testkit_common::{
    causes, current_version, environment, eventually, plain, status_of, until_gone, webapp,
    webapp_crd, webapps,
};

fn config_map(name: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn owned_by(owner: &impl Resource<DynamicType = ()>, blocking: bool) -> OwnerReference {
    let mut reference = owner.controller_owner_ref(&()).unwrap();
    reference.block_owner_deletion = Some(blocking);
    reference
}

scenario!(finalizers_hold_deletion_until_removed, async |backend| {
    let env = plain(backend).await;
    let api: Api<ConfigMap> = Api::default_namespaced(env.client());
    let mut cm = config_map("held");
    cm.metadata.finalizers = Some(vec!["example.com/hold".into()]);
    api.create(&PostParams::default(), &cm).await.unwrap();
    let pending = api
        .delete("held", &DeleteParams::default())
        .await
        .unwrap()
        .left()
        .expect("the object is returned while held");
    assert!(pending.metadata.deletion_timestamp.is_some());
    assert!(
        api.get("held")
            .await
            .unwrap()
            .metadata
            .deletion_timestamp
            .is_some()
    );

    let add = json!({"metadata": {"finalizers": ["example.com/hold", "example.com/new"]}});
    let refused = status_of(
        api.patch("held", &PatchParams::default(), &Patch::Merge(&add))
            .await,
    );
    assert_eq!(refused.code, 422);
    assert!(
        refused
            .message
            .contains("no new finalizers can be added if the object is being deleted"),
        "{}",
        refused.message
    );

    let mut watch = api
        .watch(&WatchParams::default(), &current_version(&api).await)
        .await
        .unwrap()
        .boxed();
    api.patch(
        "held",
        &PatchParams::default(),
        &Patch::Merge(&json!({"metadata": {"finalizers": null}})),
    )
    .await
    .unwrap();
    assert!(matches!(
        eventually("DELETED", watch.try_next())
            .await
            .unwrap()
            .unwrap(),
        WatchEvent::Deleted(_)
    ));
    assert!(api.get_opt("held").await.unwrap().is_none());
});

scenario!(
    garbage_collection_follows_owner_references,
    async |backend| {
        // The real API server marks owners; kube-controller-manager's garbage collector does the rest.
        let env = environment(backend)
            .controller_manager(true)
            .start()
            .await
            .unwrap();
        let owners: Api<ConfigMap> = Api::default_namespaced(env.client());
        let children: Api<Secret> = Api::default_namespaced(env.client());
        let child = |name: &str, owner: &ConfigMap, finalizer: Option<&str>| Secret {
            metadata: ObjectMeta {
                name: Some(name.into()),
                owner_references: Some(vec![owned_by(owner, true)]),
                finalizers: finalizer.map(|f| vec![f.to_string()]),
                ..Default::default()
            },
            ..Default::default()
        };

        // Background: the owner goes at once, its dependents right after.
        let owner = owners
            .create(&PostParams::default(), &config_map("bg"))
            .await
            .unwrap();
        children
            .create(&PostParams::default(), &child("bg-child", &owner, None))
            .await
            .unwrap();
        owners
            .delete("bg", &DeleteParams::background())
            .await
            .unwrap();
        until_gone(&children, "bg-child").await;

        // Foreground: the owner waits (foregroundDeletion) until blocking dependents are gone.
        let owner = owners
            .create(&PostParams::default(), &config_map("fg"))
            .await
            .unwrap();
        children
            .create(
                &PostParams::default(),
                &child("fg-child", &owner, Some("example.com/slow")),
            )
            .await
            .unwrap();
        owners
            .delete("fg", &DeleteParams::foreground())
            .await
            .unwrap();
        let waiting = owners.get("fg").await.unwrap();
        assert_eq!(waiting.finalizers(), ["foregroundDeletion"]);
        eventually(
            "the dependent to be deleted",
            await_condition(children.clone(), "fg-child", |child: Option<&Secret>| {
                child.is_some_and(|c| c.metadata.deletion_timestamp.is_some())
            }),
        )
        .await
        .unwrap();
        children
            .patch(
                "fg-child",
                &PatchParams::default(),
                &Patch::Merge(&json!({"metadata": {"finalizers": null}})),
            )
            .await
            .unwrap();
        until_gone(&children, "fg-child").await;
        // The owner is released once its dependents are gone.
        until_gone(&owners, "fg").await;

        // Orphan: dependents stay, without the owner reference.
        let owner = owners
            .create(&PostParams::default(), &config_map("orphan"))
            .await
            .unwrap();
        children
            .create(&PostParams::default(), &child("orphan-child", &owner, None))
            .await
            .unwrap();
        let params = DeleteParams {
            propagation_policy: Some(PropagationPolicy::Orphan),
            ..Default::default()
        };
        owners.delete("orphan", &params).await.unwrap();
        until_gone(&owners, "orphan").await;
        assert!(
            children
                .get("orphan-child")
                .await
                .unwrap()
                .metadata
                .owner_references
                .is_none()
        );
    }
);

scenario!(
    deletes_answer_with_a_status_or_the_held_object_and_check_preconditions,
    async |backend| {
        let env = environment(backend)
            .crd(webapp_crd())
            .start()
            .await
            .unwrap();
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        let created = api
            .create(&PostParams::default(), &config_map("gone"))
            .await
            .unwrap();
        let uid = created.uid().unwrap();
        // Preconditions are conflicts naming the object by kind.
        let wrong_uid = DeleteParams {
            preconditions: Some(Preconditions {
                uid: Some("nope".into()),
                resource_version: None,
            }),
            ..Default::default()
        };
        let status = status_of(api.delete("gone", &wrong_uid).await);
        assert_eq!(
            (status.code, status.message),
            (
                409,
                format!(
                    "Operation cannot be fulfilled on ConfigMap \"gone\": the UID in the precondition \
                     (nope) does not match the UID in record ({uid}). The object might have been \
                     deleted and then recreated"
                )
            )
        );
        let version = created.resource_version().unwrap();
        let wrong_version = DeleteParams {
            preconditions: Some(Preconditions {
                uid: None,
                resource_version: Some("1".into()),
            }),
            ..Default::default()
        };
        let status = status_of(api.delete("gone", &wrong_version).await);
        assert_eq!(
            status.message,
            format!(
                "Operation cannot be fulfilled on ConfigMap \"gone\": the ResourceVersion in the \
                 precondition (1) does not match the ResourceVersion in record ({version}). The \
                 object might have been modified"
            )
        );
        // An object without finalizers goes at once: the answer is a Success status.
        let deleted = api
            .delete("gone", &DeleteParams::default())
            .await
            .unwrap()
            .right()
            .expect("a Status");
        let details = deleted.details.unwrap();
        assert_eq!(
            (
                details.name.as_str(),
                details.group.as_str(),
                details.kind.as_str(),
                details.uid
            ),
            ("gone", "", "configmaps", uid.clone())
        );
        assert_eq!(
            status_of(api.get("gone").await).message,
            "configmaps \"gone\" not found"
        );

        // A held custom resource is answered as stored: deletionTimestamp, a grace period of
        // 0, and the generation bumped.
        let apps = webapps(env.client(), "default");
        let mut held = webapp("held", json!({"image": "nginx"}));
        held.metadata.finalizers = Some(vec!["example.com/hold".into()]);
        apps.create(&PostParams::default(), &held).await.unwrap();
        let pending = apps
            .delete("held", &DeleteParams::default())
            .await
            .unwrap()
            .left()
            .expect("the held object");
        assert!(pending.metadata.deletion_timestamp.is_some());
        assert_eq!(
            (
                pending.metadata.deletion_grace_period_seconds,
                pending.metadata.generation
            ),
            (Some(0), Some(2))
        );
        let add = json!({"metadata": {"finalizers": ["example.com/hold", "example.com/new"]}});
        let status = status_of(
            apps.patch("held", &PatchParams::default(), &Patch::Merge(&add))
                .await,
        );
        let forbidden = "metadata.finalizers: Forbidden: no new finalizers can be added if the \
                         object is being deleted, found new finalizers []string{\"example.com/new\"}";
        assert_eq!(
            status.message,
            format!("WebApp.app.example.com \"held\" is invalid: {forbidden}")
        );
        // The apiextensions server reports it twice in the causes.
        assert_eq!(causes(&status), [forbidden, forbidden]);
        // A spec change of a deleting object still bumps the generation.
        let changed = apps
            .patch(
                "held",
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"replicas": 3}})),
            )
            .await
            .unwrap();
        assert_eq!(changed.metadata.generation, Some(3));
        apps.patch(
            "held",
            &PatchParams::default(),
            &Patch::Merge(&json!({"metadata": {"finalizers": null}})),
        )
        .await
        .unwrap();
        until_gone(&apps, "held").await;
    }
);
