//! Throughput of the testkit API server through a real `kube::Client`: creates, lists,
//! server-side applies, watch delivery, and a full kube-runtime controller reconciling N objects.
//! Prints figures; asserts nothing about speed.
//!
//! `cargo bench --bench testkit`

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::{
    Api, ListParams, ObjectMeta, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use webop::testkit::{ApiServer, Verb};

const OBJECTS: usize = 1_000;

fn config_map(name: String) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name),
            labels: Some([("bench".to_string(), "yes".to_string())].into()),
            ..Default::default()
        },
        data: Some([("key".to_string(), "value".to_string())].into()),
        ..Default::default()
    }
}

fn report(what: &str, count: usize, elapsed: Duration) {
    let per_second = count as f64 / elapsed.as_secs_f64();
    println!(
        "{what:<40} {count:>6} in {:>8.1} ms  {per_second:>10.0}/s",
        elapsed.as_secs_f64() * 1e3
    );
}

async fn reconcile(cm: Arc<ConfigMap>, client: Arc<kube::Client>) -> Result<Action, kube::Error> {
    let secrets: Api<Secret> = Api::namespaced((*client).clone(), "default");
    let secret = Secret {
        metadata: ObjectMeta {
            name: Some(cm.name_any()),
            owner_references: Some(vec![
                cm.controller_owner_ref(&())
                    .expect("stored objects have a uid"),
            ]),
            ..Default::default()
        },
        ..Default::default()
    };
    secrets
        .patch(
            &cm.name_any(),
            &PatchParams::apply("bench").force(),
            &Patch::Apply(&secret),
        )
        .await?;
    Ok(Action::await_change())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = ApiServer::new();
    let client = server.client();
    let api: Api<ConfigMap> = Api::default_namespaced(client.clone());

    let mut watch = api
        .watch(
            &WatchParams::default(),
            &server.resource_version().to_string(),
        )
        .await
        .unwrap()
        .boxed();
    let start = Instant::now();
    for i in 0..OBJECTS {
        api.create(&PostParams::default(), &config_map(format!("cm-{i:05}")))
            .await
            .unwrap();
    }
    report("create", OBJECTS, start.elapsed());

    let start = Instant::now();
    let mut delivered = 0;
    while delivered < OBJECTS {
        if let Some(WatchEvent::Added(_)) = watch.try_next().await.unwrap() {
            delivered += 1;
        }
    }
    report("watch events drained", OBJECTS, start.elapsed());

    let start = Instant::now();
    for _ in 0..20 {
        assert_eq!(
            api.list(&ListParams::default()).await.unwrap().items.len(),
            OBJECTS
        );
    }
    report(&format!("list of {OBJECTS}"), 20, start.elapsed());

    let start = Instant::now();
    for _ in 0..20 {
        let mut token: Option<String> = None;
        loop {
            let mut params = ListParams::default().limit(100);
            if let Some(t) = &token {
                params = params.continue_token(t);
            }
            let page = api.list(&params).await.unwrap();
            token = page.metadata.continue_;
            if token.is_none() {
                break;
            }
        }
    }
    report(
        &format!("paginated list of {OBJECTS} (limit 100)"),
        20,
        start.elapsed(),
    );

    let start = Instant::now();
    for i in 0..OBJECTS {
        let applied = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"applied": i.to_string()}});
        api.patch(
            &format!("cm-{i:05}"),
            &PatchParams::apply("bench"),
            &Patch::Apply(&applied),
        )
        .await
        .unwrap();
    }
    report("server-side apply", OBJECTS, start.elapsed());

    server.counters().reset();
    let start = Instant::now();
    let secrets: Api<Secret> = Api::default_namespaced(client.clone());
    let controller = Controller::new(api.clone(), watcher::Config::default())
        .owns(secrets.clone(), watcher::Config::default())
        .run(
            reconcile,
            |_, _, _| Action::requeue(Duration::from_millis(10)),
            Arc::new(client.clone()),
        )
        .for_each(|_| async {});
    let running = tokio::spawn(controller);
    while server.counters().get(Verb::Patch, "secrets") < OBJECTS as u64 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    report(
        "controller reconciles (owns, SSA child)",
        OBJECTS,
        start.elapsed(),
    );
    running.abort();
    println!(
        "requests during the controller run: {:?}",
        server.counters().snapshot()
    );
}
