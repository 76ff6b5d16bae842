//! Round trips of CronJob through the hub of its conversion webhook, v1: v2 converted from the
//! hub and back gives the hub object again, which the API server relies on when it stores v1
//! and serves v2; and the schedule is the one field whose shape changes.

use serde_json::json;
use webop::webhook::Convertible;

use cronjob_operator_api::v1 as hub;
use cronjob_operator_api::v2;

/// The JSON the API server would store or serve.
fn json(object: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(object).unwrap()
}

/// A CronJob v1 with every field set, its status too.
fn full() -> hub::CronJob {
    serde_json::from_value(json!({
      "apiVersion": "batch.tutorial.kubebuilder.io/v1",
      "kind": "CronJob",
      "metadata": { "name": "cronjob-sample", "namespace": "default", "labels": { "a": "b" } },
      "spec": {
        "schedule": "*/5 9-17 * jan 1-5",
        "startingDeadlineSeconds": 60,
        "concurrencyPolicy": "Replace",
        "suspend": true,
        "successfulJobsHistoryLimit": 2,
        "failedJobsHistoryLimit": 0,
        "jobTemplate": {
          "metadata": { "labels": { "job": "label" } },
          "spec": { "template": { "spec": {
            "containers": [{ "name": "hello", "image": "busybox" }],
            "restartPolicy": "OnFailure"
          } } }
        }
      },
      "status": {
        "active": [{ "kind": "Job", "name": "cronjob-sample-1767258000", "namespace": "default" }],
        "lastScheduleTime": "2026-01-01T09:00:00Z"
      }
    }))
    .expect("a CronJob v1")
}

#[test]
fn v1_round_trips_through_v2() {
    let hub = full();
    let spoke = v2::CronJob::convert_from(&hub).expect("the hub converts to v2");
    let back: hub::CronJob = spoke.convert_to().expect("v2 converts back to the hub");
    assert_eq!(json(&back), json(&hub));
}

#[test]
fn v2_round_trips_through_v1() {
    let spoke: v2::CronJob = serde_json::from_value(json!({
      "apiVersion": "batch.tutorial.kubebuilder.io/v2",
      "kind": "CronJob",
      "metadata": { "name": "cronjob-sample" },
      "spec": {
        "schedule": { "minute": "*/1", "dayOfWeek": "1-5" },
        "jobTemplate": { "spec": { "template": { "spec": { "containers": [] } } } }
      }
    }))
    .expect("a CronJob v2");
    let hub: hub::CronJob = spoke.convert_to().expect("v2 converts to the hub");
    assert_eq!(hub.spec.schedule, "*/1 * * * 1-5");
    assert_eq!(
        json(&v2::CronJob::convert_from(&hub).unwrap()),
        json(&spoke)
    );
}

#[test]
fn the_schedule_string_becomes_cron_fields() {
    let converted = v2::CronJob::convert_from(&full()).unwrap();
    let field = |value: &str| Some(v2::CronField(value.to_owned()));
    assert_eq!(
        converted.spec.schedule,
        v2::CronSchedule {
            minute: field("*/5"),
            hour: field("9-17"),
            day_of_month: None,
            month: field("jan"),
            day_of_week: field("1-5"),
        }
    );
}

#[test]
fn a_schedule_v2_cannot_hold_is_a_conversion_error() {
    let mut hub = full();
    hub.spec.schedule = "@hourly".to_owned();
    let error = v2::CronJob::convert_from(&hub).expect_err("an alias has no cron fields");
    assert!(
        error.message().contains("\"@hourly\""),
        "{}",
        error.message()
    );
}
