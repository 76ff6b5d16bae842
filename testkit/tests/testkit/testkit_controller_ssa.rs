//! A real kube-runtime controller, unchanged: a WebApp controller that writes its status with
//! server-side apply. It is a `scenario!`: the same body runs on the testkit and on a real
//! kube-apiserver.

use crate::testkit_common;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::events::{Recorder, Reporter};
use kube::runtime::wait::await_condition;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use serde_json::json;
use testkit_common::{environment, eventually, webapp, webapp_crd, webapp_resource, webapps};

struct Context {
    client: kube::Client,
    #[expect(
        dead_code,
        reason = "the same context as testkit_controller.rs's; this reconciler publishes no events"
    )]
    recorder: Recorder,
}

#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

fn retry_soon<E>(_: Arc<impl Sized>, _: &E, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_millis(50))
}
async fn reconcile_webapp(app: Arc<DynamicObject>, ctx: Arc<Context>) -> Result<Action, Failure> {
    let namespace = app.namespace().unwrap_or_default();
    let replicas = app.data["spec"]["replicas"].as_i64().unwrap_or(1);
    let owner = app
        .controller_owner_ref(&webapp_resource())
        .expect("stored objects have a uid");
    let config = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": format!("{}-config", app.name_any()), "ownerReferences": [owner]},
        "data": {"image": app.data["spec"]["image"], "replicas": replicas.to_string()},
    });
    let params = PatchParams::apply("webapp-controller").force();
    let children: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &namespace);
    children
        .patch(
            &format!("{}-config", app.name_any()),
            &params,
            &Patch::Apply(&config),
        )
        .await?;
    let status = json!({
        "apiVersion": "app.example.com/v1",
        "kind": "WebApp",
        "status": {
            "availableReplicas": replicas,
            "phase": "Running",
            "conditions": [{"type": "Available", "status": "True", "reason": "ConfigWritten"}],
        },
    });
    webapps(ctx.client.clone(), &namespace)
        .patch_status(&app.name_any(), &params, &Patch::Apply(&status))
        .await?;
    Ok(Action::await_change())
}

scenario!(
    webapp_controller_writes_status_with_server_side_apply,
    async |backend| {
        let env = environment(backend)
            .crd(webapp_crd())
            .start()
            .await
            .unwrap();
        let client = env.client();
        let apps = webapps(client.clone(), "default");
        let recorder = Recorder::new(
            client.clone(),
            Reporter {
                controller: "webapp-controller".into(),
                instance: None,
            },
        );
        let context = Arc::new(Context {
            client: client.clone(),
            recorder,
        });
        let controller =
            Controller::new_with(apps.clone(), watcher::Config::default(), webapp_resource())
                .owns(
                    Api::<ConfigMap>::namespaced(client.clone(), "default"),
                    watcher::Config::default(),
                )
                .run(reconcile_webapp, retry_soon, context)
                .for_each(|_| async {});
        let running = tokio::spawn(controller);

        apps.create(
            &PostParams::default(),
            &webapp("shop", json!({"image": "nginx:1.27", "replicas": 3})),
        )
        .await
        .unwrap();
        let running_phase = |app: Option<&DynamicObject>| {
            app.is_some_and(|a| a.data["status"]["phase"] == "Running")
        };
        let app = eventually(
            "status phase Running",
            await_condition(apps.clone(), "shop", running_phase),
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(app.data["status"]["availableReplicas"], 3);
        assert_eq!(
            app.data["spec"],
            json!({"image": "nginx:1.27", "replicas": 3, "port": 80})
        );
        assert_eq!(
            app.metadata.generation,
            Some(1),
            "status writes leave generation alone"
        );
        let status_manager = app
            .managed_fields()
            .iter()
            .find(|m| m.subresource.as_deref() == Some("status"))
            .expect("a status manager");
        assert_eq!(
            (
                status_manager.manager.as_deref(),
                status_manager.operation.as_deref()
            ),
            (Some("webapp-controller"), Some("Apply"))
        );

        // A spec change flows through to the child and the status.
        apps.patch(
            "shop",
            &PatchParams::default(),
            &Patch::Merge(&json!({"spec": {"replicas": 5}})),
        )
        .await
        .unwrap();
        let five = |app: Option<&DynamicObject>| {
            app.is_some_and(|a| a.data["status"]["availableReplicas"] == 5)
        };
        eventually(
            "availableReplicas 5",
            await_condition(apps.clone(), "shop", five),
        )
        .await
        .unwrap();
        let children: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
        let child = children.get("shop-config").await.unwrap();
        assert_eq!(child.data.unwrap()["replicas"], "5");
        running.abort();
    }
);
