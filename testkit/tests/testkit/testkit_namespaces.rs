//! Namespace lifecycle: objects need an existing namespace, and deleting a namespace takes its
//! contents with it. Every test is a `scenario!`: the same body runs on the testkit and on a real
//! kube-apiserver with kube-controller-manager (whose namespace controller empties a deleted
//! namespace a moment later, so the body waits for outcomes instead of expecting them at once).

use crate::testkit_common;

use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, DeleteParams, ObjectMeta, Patch, PatchParams, PostParams};
use kube::runtime::wait::await_condition;
use serde_json::json;
use testkit_common::{environment, eventually, status_of, until_gone};

fn config_map(name: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

scenario!(
    namespaces_must_exist_and_take_their_contents_with_them,
    async |backend| {
        // kube-controller-manager's namespace controller empties a deleted namespace.
        let env = environment(backend)
            .controller_manager(true)
            .start()
            .await
            .unwrap();
        let client = env.client();
        let missing: Api<ConfigMap> = Api::namespaced(client.clone(), "team-a");
        assert_eq!(
            status_of(
                missing
                    .create(&PostParams::default(), &config_map("a"))
                    .await
            )
            .message,
            "namespaces \"team-a\" not found"
        );
        let namespaces: Api<Namespace> = Api::all(client.clone());
        namespaces
            .create(
                &PostParams::default(),
                &Namespace {
                    metadata: ObjectMeta {
                        name: Some("team-a".into()),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        missing
            .create(&PostParams::default(), &config_map("a"))
            .await
            .unwrap();
        let mut held = config_map("held");
        held.metadata.finalizers = Some(vec!["example.com/hold".into()]);
        missing.create(&PostParams::default(), &held).await.unwrap();
        let terminating = namespaces
            .delete("team-a", &DeleteParams::default())
            .await
            .unwrap()
            .left()
            .expect("the namespace, terminating");
        assert_eq!(
            terminating.status.and_then(|s| s.phase).as_deref(),
            Some("Terminating")
        );
        // Its content goes; what a finalizer holds keeps the namespace, which takes nothing new.
        until_gone(&missing, "a").await;
        let refused = status_of(
            missing
                .create(&PostParams::default(), &config_map("b"))
                .await,
        );
        assert_eq!(
            (
                refused.code,
                refused.reason.as_str(),
                refused.message.as_str()
            ),
            (
                403,
                "Forbidden",
                "configmaps \"b\" is forbidden: unable to create new content in namespace team-a \
                 because it is being terminated"
            )
        );
        eventually(
            "the held object to be deleted",
            await_condition(missing.clone(), "held", |cm: Option<&ConfigMap>| {
                cm.is_some_and(|c| c.metadata.deletion_timestamp.is_some())
            }),
        )
        .await
        .unwrap();
        missing
            .patch(
                "held",
                &PatchParams::default(),
                &Patch::Merge(&json!({"metadata": {"finalizers": null}})),
            )
            .await
            .unwrap();
        until_gone(&namespaces, "team-a").await;
        assert!(missing.get_opt("held").await.unwrap().is_none());
    }
);
