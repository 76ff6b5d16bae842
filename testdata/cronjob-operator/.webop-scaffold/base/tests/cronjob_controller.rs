//! Tests of the CronJob controller: on a real kube-apiserver when `KUBEBUILDER_ASSETS` names
//! its binaries (`make setup-envtest`), otherwise offline on webop's in-memory API server, on a
//! paused clock (a simulated minute takes no time).

use std::time::Duration;

use kube::Resource;
use kube::api::{Api, PostParams};
use webop::envtest::Environment;
use webop::manager::{Manager, Options};

use cronjob_operator::controller::cronjob_controller;
use cronjob_operator_api::v1 as batchv1;

#[test]
fn the_kind_is_served_where_the_controller_watches_it() {
    assert_eq!(
        batchv1::CronJob::group(&()),
        "batch.tutorial.kubebuilder.io"
    );
    assert_eq!(batchv1::CronJob::version(&()), "v1");
    assert_eq!(batchv1::CronJob::plural(&()), "cronjobs");
}

#[tokio::test]
async fn a_new_cronjob_is_reconciled() {
    let env = Environment::builder()
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .paused_clock()
        .start()
        .await
        .expect("the test API server starts");
    let manager = Manager::with_client(env.client(), Options::default(), "test");
    let controller = tokio::spawn(cronjob_controller::run(manager.clone()));

    let spec = batchv1::CronJobSpec {
        foo: Some("bar".to_owned()),
    };
    let api = Api::<batchv1::CronJob>::namespaced(env.client(), "default");
    api.create(
        &PostParams::default(),
        &batchv1::CronJob::new("sample", spec),
    )
    .await
    .unwrap();
    let reconciled = format!(
        "controller_runtime_reconcile_total{{controller=\"{}\",result=\"success\"}} 1",
        cronjob_controller::NAME
    );
    let waiting = async {
        while !manager.metrics().encode().lines().any(|l| l == reconciled) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), waiting)
        .await
        .expect("the new object is reconciled once");

    manager.shutdown();
    controller.await.unwrap();
}

// TODO(user): test what the reconcile does: create objects through the environment's client,
// then wait (bounded) for the state the controller should reach (see `webop create api --image`).
