//! Tests of the webhooks of CronJob v1 (kubebuilder's cronjob_webhook_test.go and
//! webhook_suite_test.go): the defaulter and the validator called directly, and an API server
//! calling every webhook of `webhooks()` (a real kube-apiserver when `KUBEBUILDER_ASSETS` is set,
//! webop's in-memory one otherwise), so that a denial reaches the client as `kubectl` shows it.

use kube::Api;
use kube::api::PostParams;
use serde_json::json;
use webop::envtest::Environment;
use webop::webhook::{CustomDefaulter, CustomValidator};

use cronjob_operator::webhook::v1::cronjob_webhook::*;
use cronjob_operator_api::v1::{ConcurrencyPolicy, CronJob};

/// The sample CronJob (config/samples/batch_v1_cronjob.yaml), as `kubectl apply -k
/// config/samples` sends it.
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
        "schedule": "*/1 * * * *",
        "startingDeadlineSeconds": 60,
        "concurrencyPolicy": "Allow",
        "jobTemplate": {
          "spec": {
            "template": {
              "spec": {
                "securityContext": {
                  "runAsNonRoot": true,
                  "runAsUser": 1000,
                  "seccompProfile": { "type": "RuntimeDefault" }
                },
                "containers": [{
                  "name": "hello",
                  "image": "busybox",
                  "args": ["/bin/sh", "-c", "date; echo Hello from the Kubernetes cluster"],
                  "securityContext": {
                    "allowPrivilegeEscalation": false,
                    "capabilities": { "drop": ["ALL"] },
                    "readOnlyRootFilesystem": false
                  }
                }],
                "restartPolicy": "OnFailure"
              }
            }
          }
        }
      }
    }))
    .expect("the sample is a CronJob")
}

/// The sample without the fields the defaulter fills in.
fn bare_sample() -> CronJob {
    let mut cronjob = sample();
    cronjob.spec.concurrency_policy = None;
    cronjob.spec.suspend = None;
    cronjob.spec.successful_jobs_history_limit = None;
    cronjob.spec.failed_jobs_history_limit = None;
    cronjob
}

async fn start() -> Environment {
    Environment::builder()
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .webhooks(cronjob_operator::webhook::webhooks())
        .start()
        .await
        .expect("the API server starts with the CRDs and the webhooks")
}

/// The API server calls the defaulting webhook: what the sample leaves out is filled in.
#[tokio::test]
async fn the_api_server_stores_the_sample_with_its_defaults() {
    let env = start().await;
    let api: Api<CronJob> = Api::namespaced(env.client(), "default");
    let created = api
        .create(&PostParams::default(), &bare_sample())
        .await
        .expect("the webhooks admit the sample");
    let spec = &created.spec;
    assert_eq!(spec.concurrency_policy, Some(ConcurrencyPolicy::Allow));
    assert_eq!(spec.suspend, Some(false));
    assert_eq!(spec.successful_jobs_history_limit, Some(3));
    assert_eq!(spec.failed_jobs_history_limit, Some(1));
}

/// The API server calls the validating webhook: a bad schedule and a long name are refused
/// with both field errors, in the API server's words.
#[tokio::test]
async fn the_api_server_refuses_a_bad_schedule_and_a_long_name() {
    let env = start().await;
    let api: Api<CronJob> = Api::namespaced(env.client(), "default");
    let mut cronjob = sample();
    let name = "a".repeat(MAX_NAME_LENGTH + 1);
    cronjob.metadata.name = Some(name.clone());
    cronjob.spec.schedule = "every minute".to_owned();
    let Err(kube::Error::Api(status)) = api.create(&PostParams::default(), &cronjob).await else {
        panic!("a CronJob with a bad schedule and a long name was admitted");
    };
    assert_eq!(status.code, 422, "{status:?}");
    let expected = format!(
        "admission webhook \"vcronjob-v1.kb.io\" denied the request: \
         CronJob.batch.tutorial.kubebuilder.io \"{name}\" is invalid: \
         [metadata.name: Invalid value: \"{name}\": must be no more than 52 characters, \
         spec.schedule: Invalid value: \"every minute\": "
    );
    assert!(status.message.starts_with(&expected), "{}", status.message);
}

#[tokio::test]
async fn the_defaulter_fills_in_what_is_left_out() {
    let mut cronjob = bare_sample();
    CronJobCustomDefaulter::TUTORIAL
        .default(&mut cronjob)
        .await
        .expect("the sample is admitted");
    let spec = &cronjob.spec;
    assert_eq!(spec.concurrency_policy, Some(ConcurrencyPolicy::Allow));
    assert_eq!(spec.suspend, Some(false));
    assert_eq!(spec.successful_jobs_history_limit, Some(3));
    assert_eq!(spec.failed_jobs_history_limit, Some(1));
}

#[tokio::test]
async fn the_defaulter_keeps_what_is_set() {
    let mut cronjob = sample();
    cronjob.spec.concurrency_policy = Some(ConcurrencyPolicy::Forbid);
    cronjob.spec.suspend = Some(true);
    cronjob.spec.successful_jobs_history_limit = Some(0);
    cronjob.spec.failed_jobs_history_limit = Some(7);
    let before = cronjob.spec.clone();
    CronJobCustomDefaulter::TUTORIAL
        .default(&mut cronjob)
        .await
        .expect("the CronJob is admitted");
    assert_eq!(cronjob.spec, before);
}

/// The sample is valid: it is admitted on create, update and delete, with no warnings.
#[tokio::test]
async fn the_validator_admits_the_sample() {
    let cronjob = sample();
    let validator = CronJobCustomValidator;
    let results = [
        validator.validate_create(&cronjob).await,
        validator.validate_update(&cronjob, &cronjob).await,
        validator.validate_delete(&cronjob).await,
    ];
    for (verb, result) in ["create", "update", "delete"].into_iter().zip(results) {
        match result {
            Ok(warnings) => assert!(warnings.is_empty(), "{verb}: warnings {warnings:?}"),
            Err(denied) => panic!("{verb}: the sample was denied: {denied}"),
        }
    }
}

#[tokio::test]
async fn the_validator_refuses_a_schedule_that_does_not_parse() {
    let mut cronjob = sample();
    cronjob.spec.schedule = "*/1 * * *".to_owned();
    let validator = CronJobCustomValidator;
    for result in [
        validator.validate_create(&cronjob).await,
        validator.validate_update(&sample(), &cronjob).await,
    ] {
        let denied = result.expect_err("a four-field schedule is refused");
        let status = denied.status("batch.tutorial.kubebuilder.io", "CronJob", "cronjob-sample");
        assert_eq!(status.code, 422);
        let causes = status.details.expect("the field errors").causes;
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!(causes[0].field, "spec.schedule");
        assert_eq!(causes[0].reason, "FieldValueInvalid");
    }
    // A deletion is not validated: a CronJob stored before the rule can still be deleted.
    assert!(validator.validate_delete(&cronjob).await.is_ok());
}

#[tokio::test]
async fn the_validator_refuses_a_name_too_long_for_the_jobs() {
    let mut cronjob = sample();
    cronjob.metadata.name = Some("a".repeat(MAX_NAME_LENGTH));
    assert!(
        CronJobCustomValidator
            .validate_create(&cronjob)
            .await
            .is_ok()
    );
    cronjob.metadata.name = Some("a".repeat(MAX_NAME_LENGTH + 1));
    let denied = CronJobCustomValidator
        .validate_create(&cronjob)
        .await
        .expect_err("a 53-character name is refused");
    let status = denied.status("batch.tutorial.kubebuilder.io", "CronJob", "x");
    let causes = status.details.expect("the field errors").causes;
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(causes[0].field, "metadata.name");
}
