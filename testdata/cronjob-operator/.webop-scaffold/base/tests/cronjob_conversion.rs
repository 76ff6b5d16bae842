//! Round trips of CronJob through the hub of its conversion webhook, v1: each spoke
//! converted from the hub and back gives the hub object again, which the API server relies on
//! when it stores v1 and serves the other versions.
//!
//! TODO(user): add objects that exercise the fields your conversions handle.

use serde_json::json;
use webop::webhook::Convertible;

use cronjob_operator_api::v1 as hub;

/// The sample CronJob v1, as `kubectl apply -k config/samples` sends it.
fn sample() -> hub::CronJob {
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

#[test]
fn v2_round_trips_through_the_hub() {
    let hub = sample();
    let spoke: cronjob_operator_api::v2::CronJob =
        Convertible::convert_from(&hub).expect("the hub converts to v2");
    let back: hub::CronJob = spoke.convert_to().expect("v2 converts back to the hub");
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&hub).unwrap()
    );
}
