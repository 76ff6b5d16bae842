//! Tests of the webhooks of CronJob v1 (kubebuilder's cronjob_webhook_test.go
//! and webhook_suite_test.go), on the sample of
//! config/samples/batch_v1_cronjob.yaml: the defaulter and the validator
//! called directly, and an API server calling every webhook of `webhooks()` on a create (a real
//! kube-apiserver when `KUBEBUILDER_ASSETS` is set, webop's in-memory one otherwise).
//!
//! TODO(user): add the cases of your defaulting and validation logic.

use kube::Api;
use kube::api::PostParams;
use serde_json::json;
use webop::envtest::Environment;

use cronjob_operator::webhook::v1::cronjob_webhook::*;
use cronjob_operator_api::v1::CronJob;

/// The sample CronJob, as `kubectl apply -k config/samples` sends it.
fn sample() -> CronJob {
    serde_json::from_value(json!({
      "apiVersion": "batch.tutorial.kubebuilder.io/v1",
      "kind": "CronJob",
      "metadata": {
        "labels": {
          "app.kubernetes.io/managed-by": "kustomize",
          "app.kubernetes.io/name": "cronjob-operator"
        },
        "name": "cronjob-sample"
      },
      "spec": {
        "foo": "bar"
      }
    }))
    .expect("the sample is a CronJob")
}

/// The API server calls the webhooks as the manager registers them (`webhooks()` of
/// src/webhook/mod.rs) and stores the sample they admit.
#[tokio::test]
async fn the_api_server_admits_the_sample_through_the_webhooks() {
    let env = Environment::builder()
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .webhooks(cronjob_operator::webhook::webhooks())
        .start()
        .await
        .expect("the API server starts with the CRDs and the webhooks");
    let api: Api<CronJob> = Api::namespaced(env.client(), "default");
    let created = api
        .create(&PostParams::default(), &sample())
        .await
        .expect("the webhooks admit the sample");
    assert_eq!(created.metadata.name, sample().metadata.name);
}
/// The scaffolded defaulter sets nothing, so the sample comes out as it went in.
/// TODO(user): once `default` sets fields, assert their values here instead.
#[tokio::test]
async fn the_defaulter_admits_the_sample_and_leaves_it_as_it_is() {
    let mut cronjob = sample();
    let before = serde_json::to_value(&cronjob).unwrap();
    webop::webhook::CustomDefaulter::default(&CronJobCustomDefaulter, &mut cronjob)
        .await
        .expect("the sample is admitted");
    assert_eq!(serde_json::to_value(&cronjob).unwrap(), before);
}
/// The sample is valid: it is admitted on create, update and delete, with no warnings.
/// TODO(user): add the objects your validation denies, and check the denial's field errors.
#[tokio::test]
async fn the_validator_admits_the_sample() {
    use webop::webhook::CustomValidator;
    let cronjob = sample();
    let validator = CronJobCustomValidator;
    let warnings = [
        validator.validate_create(&cronjob).await,
        validator.validate_update(&cronjob, &cronjob).await,
        validator.validate_delete(&cronjob).await,
    ];
    for (verb, warnings) in ["create", "update", "delete"].into_iter().zip(warnings) {
        match warnings {
            Ok(warnings) => assert!(warnings.is_empty(), "{verb}: warnings {warnings:?}"),
            Err(_) => panic!("{verb}: the sample was denied"),
        }
    }
}
// +webop:scaffold:webhooktests
