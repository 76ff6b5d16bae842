//! A real kube-runtime controller, unchanged: a `Controller<ConfigMap>` that owns Secrets
//! (finalizer helper, Recorder events, deletion and garbage collection). It is a `scenario!`: the
//! same body runs on the testkit and on a real kube-apiserver (with kube-controller-manager); the
//! injected 500s and the dropped watches are testkit-only and happen only there. The WebApp
//! controller writing its status with server-side apply is in testkit_controller_ssa.rs.

use crate::testkit_common;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use k8s_openapi::api::events::v1::Event as K8sEvent;
use kube::api::{Api, DeleteParams, ListParams, ObjectMeta, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::runtime::finalizer::{self, finalizer};
use kube::runtime::wait::await_condition;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use serde_json::json;
use testkit_common::{environment, eventually, until_gone};
use webop_testkit::Verb;

const FINALIZER: &str = "testkit.webop.dev/cleanup";

struct Context {
    client: kube::Client,
    recorder: Recorder,
}

#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

/// The Secret a ConfigMap should own: its data, copied.
fn desired_secret(cm: &ConfigMap) -> Secret {
    let data = cm
        .data
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, ByteString(v.into_bytes())))
        .collect();
    Secret {
        metadata: ObjectMeta {
            name: Some(cm.name_any()),
            namespace: cm.namespace(),
            owner_references: Some(vec![
                cm.controller_owner_ref(&())
                    .expect("a stored ConfigMap has a uid"),
            ]),
            ..Default::default()
        },
        data: Some(data),
        ..Default::default()
    }
}

async fn reconcile(
    cm: Arc<ConfigMap>,
    ctx: Arc<Context>,
) -> Result<Action, finalizer::Error<Failure>> {
    let namespace = cm.namespace().unwrap_or_default();
    let api: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &namespace);
    finalizer(&api, FINALIZER, cm, |event| async {
        match event {
            finalizer::Event::Apply(cm) => {
                let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &namespace);
                let params = PatchParams::apply("configmap-controller").force();
                secrets
                    .patch(&cm.name_any(), &params, &Patch::Apply(desired_secret(&cm)))
                    .await?;
                let event = Event {
                    type_: EventType::Normal,
                    reason: "Synced".into(),
                    note: Some("secret written".into()),
                    action: "Sync".into(),
                    secondary: None,
                };
                ctx.recorder.publish(&event, &cm.object_ref(&())).await?;
                Ok(Action::await_change())
            }
            finalizer::Event::Cleanup(cm) => {
                let event = Event {
                    type_: EventType::Normal,
                    reason: "CleanedUp".into(),
                    note: None,
                    action: "Cleanup".into(),
                    secondary: None,
                };
                ctx.recorder.publish(&event, &cm.object_ref(&())).await?;
                Ok(Action::await_change())
            }
        }
    })
    .await
}

fn retry_soon<E>(_: Arc<impl Sized>, _: &E, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_millis(50))
}

fn config_map(name: &str, value: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        data: Some([("value".to_string(), value.to_string())].into()),
        ..Default::default()
    }
}

fn secret_value(secret: Option<&Secret>) -> Option<String> {
    let bytes = secret?.data.as_ref()?.get("value")?;
    Some(String::from_utf8_lossy(&bytes.0).into_owned())
}

async fn wait_for_secret(api: &Api<Secret>, name: &str, value: &str) {
    let want = value.to_string();
    eventually(
        &format!("secret {name}={value}"),
        await_condition(api.clone(), name, move |s: Option<&Secret>| {
            secret_value(s).as_deref() == Some(want.as_str())
        }),
    )
    .await
    .unwrap();
}

scenario!(
    configmap_controller_owns_secrets_survives_dropped_watches_and_finalizes,
    async |backend| {
        // kube-controller-manager collects the Secret of a deleted ConfigMap on the real server.
        let env = environment(backend)
            .controller_manager(true)
            .start()
            .await
            .unwrap();
        let client = env.client();
        let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
        let secrets: Api<Secret> = Api::namespaced(client.clone(), "default");
        let recorder = Recorder::new(
            client.clone(),
            Reporter {
                controller: "configmap-controller".into(),
                instance: None,
            },
        );
        let context = Arc::new(Context {
            client: client.clone(),
            recorder,
        });
        let controller = Controller::new(cms.clone(), watcher::Config::default())
            .owns(secrets.clone(), watcher::Config::default())
            .run(reconcile, retry_soon, context)
            .for_each(|_| async {});
        let running = tokio::spawn(controller);

        // Objects created after the controller started are reconciled, on the testkit even through
        // two failed child writes (the error policy requeues).
        if let Some(server) = env.testkit() {
            server.faults().fail_next(Verb::Patch, "secrets", 2, 500);
        }
        cms.create(&PostParams::default(), &config_map("first", "one"))
            .await
            .unwrap();
        wait_for_secret(&secrets, "first", "one").await;
        if let Some(server) = env.testkit() {
            assert!(
                server.counters().get(Verb::Patch, "secrets") >= 3,
                "the reconciler retried after the injected 500s"
            );
        }
        let first = cms.get("first").await.unwrap();
        assert_eq!(
            first.finalizers(),
            [FINALIZER],
            "the finalizer() helper added its finalizer"
        );
        let secret = secrets.get("first").await.unwrap();
        let owner = &secret.metadata.owner_references.as_ref().unwrap()[0];
        assert_eq!(
            (owner.uid.as_str(), owner.controller),
            (first.uid().unwrap().as_str(), Some(true))
        );
        let managers: Vec<_> = secret
            .managed_fields()
            .iter()
            .map(|m| (m.manager.clone(), m.operation.clone()))
            .collect();
        assert_eq!(
            managers,
            [(
                Some("configmap-controller".to_string()),
                Some("Apply".to_string())
            )]
        );

        // A change to the owned child triggers the owner's reconciliation, which restores it.
        let tampered = json!({"data": {"value": "dGFtcGVyZWQ="}});
        secrets
            .patch("first", &PatchParams::default(), &Patch::Merge(&tampered))
            .await
            .unwrap();
        wait_for_secret(&secrets, "first", "one").await;

        // The owner changing is seen too.
        cms.patch(
            "first",
            &PatchParams::default(),
            &Patch::Merge(&json!({"data": {"value": "uno"}})),
        )
        .await
        .unwrap();
        wait_for_secret(&secrets, "first", "uno").await;

        // On the testkit every watch is cut, as on an API server restart; the controller re-watches
        // and carries on.
        let watches_before = env
            .testkit()
            .map(|server| server.counters().get(Verb::Watch, "configmaps"));
        if let Some(server) = env.testkit() {
            assert!(
                server.faults().drop_watches() >= 2,
                "the controller watched ConfigMaps and Secrets"
            );
        }
        cms.create(&PostParams::default(), &config_map("second", "two"))
            .await
            .unwrap();
        wait_for_secret(&secrets, "second", "two").await;
        if let (Some(server), Some(before)) = (env.testkit(), watches_before) {
            assert!(
                server.counters().get(Verb::Watch, "configmaps") > before,
                "the ConfigMap watch was reopened"
            );
        }

        // Recorder events landed as events.k8s.io/v1 Events about the ConfigMap.
        let events: Api<K8sEvent> = Api::namespaced(client.clone(), "default");
        let synced = events.list(&ListParams::default()).await.unwrap();
        assert!(
            synced
                .items
                .iter()
                .any(|e| e.reason.as_deref() == Some("Synced")
                    && e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some("first"))
        );

        // Deletion waits for the cleanup branch, which removes the finalizer; the Secret is then
        // garbage-collected through its owner reference.
        cms.delete("first", &DeleteParams::default()).await.unwrap();
        until_gone(&cms, "first").await;
        // The owned Secret is collected.
        until_gone(&secrets, "first").await;
        let cleaned = events.list(&ListParams::default()).await.unwrap();
        assert!(
            cleaned
                .items
                .iter()
                .any(|e| e.reason.as_deref() == Some("CleanedUp"))
        );
        assert!(secrets.get_opt("second").await.unwrap().is_some());
        running.abort();
    }
);
