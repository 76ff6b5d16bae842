//! Tests of the CronJob controller (kubebuilder's cronjob_controller_test.go). Its decisions
//! (`cronjob_operator::jobs::plan`) are tested at chosen times; the controller itself runs on a
//! real kube-apiserver when `KUBEBUILDER_ASSETS` names its binaries (`make setup-envtest`),
//! otherwise offline on webop's in-memory API server on a paused clock (the next minute comes
//! without waiting for it). On a real API server the controller may do only what
//! `config/rbac/role.yaml` grants.

use std::path::Path;
use std::time::Duration;

use k8s_openapi::api::batch::v1::{Job, JobCondition, JobStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::ResourceExt;
use kube::api::{Api, ListParams, PostParams};
use serde_json::json;
use webop::envtest::Environment;
use webop::manager::{Manager, Options};

use cronjob_operator::controller::cronjob_controller;
use cronjob_operator::jobs::{self, SCHEDULED_TIME_ANNOTATION};
use cronjob_operator_api::v1 as batchv1;
use cronjob_operator_api::v1::ConcurrencyPolicy;

/// How long a wait may take before the test fails (simulated time on the testkit).
const PATIENCE: Duration = Duration::from_secs(120);

fn at(time: &str) -> Timestamp {
    time.parse().unwrap()
}

/// A CronJob created at 10:00:00 that runs every five minutes.
fn cronjob(policy: ConcurrencyPolicy) -> batchv1::CronJob {
    let mut cronjob: batchv1::CronJob = serde_json::from_value(json!({
      "apiVersion": "batch.tutorial.kubebuilder.io/v1",
      "kind": "CronJob",
      "metadata": {
        "name": "test-cronjob",
        "namespace": "default",
        "uid": "0b5c3c2e-0000-4000-8000-000000000001",
        "creationTimestamp": "2026-01-01T10:00:00Z"
      },
      "spec": {
        "schedule": "*/5 * * * *",
        "jobTemplate": {
          "metadata": { "labels": { "team": "a" } },
          "spec": { "template": { "spec": {
            "containers": [{ "name": "test-container", "image": "test-image" }],
            "restartPolicy": "OnFailure"
          } } }
        }
      }
    }))
    .unwrap();
    cronjob.spec.concurrency_policy = Some(policy);
    cronjob
}

/// The Job of `cronjob`'s run at `time`, finished as `condition` says (`None`: still running).
fn job(cronjob: &batchv1::CronJob, time: &str, condition: Option<&str>) -> Job {
    let mut job = jobs::job_for(cronjob, at(time));
    job.status = Some(JobStatus {
        start_time: Some(Time(at(time))),
        conditions: condition.map(|type_| {
            vec![JobCondition {
                type_: type_.to_owned(),
                status: "True".to_owned(),
                ..JobCondition::default()
            }]
        }),
        ..JobStatus::default()
    });
    job
}

#[test]
fn the_latest_missed_run_starts_and_the_next_is_awaited() {
    let cronjob = cronjob(ConcurrencyPolicy::Allow);
    let plan = jobs::plan(&cronjob, &[], at("2026-01-01T10:12:30Z")).unwrap();
    let job = plan.create.expect("the 10:10 run is due");
    assert_eq!(
        job.name_any(),
        format!("test-cronjob-{}", at("2026-01-01T10:10:00Z").as_second())
    );
    assert_eq!(
        job.annotations()[SCHEDULED_TIME_ANNOTATION],
        "2026-01-01T10:10:00Z"
    );
    assert_eq!(job.labels()["team"], "a");
    let owner = &job.owner_references()[0];
    assert_eq!(
        (owner.kind.as_str(), owner.controller),
        ("CronJob", Some(true))
    );
    assert_eq!(plan.requeue_after, Some(Duration::from_secs(150)));
    assert!(plan.delete.is_empty());
}

#[test]
fn nothing_starts_between_runs() {
    let cronjob = cronjob(ConcurrencyPolicy::Allow);
    let ran = job(&cronjob, "2026-01-01T10:05:00Z", None);
    let plan = jobs::plan(&cronjob, &[ran], at("2026-01-01T10:07:00Z")).unwrap();
    assert_eq!(plan.create, None);
    assert_eq!(plan.status.active.len(), 1);
    assert_eq!(
        plan.status.last_schedule_time,
        Some(Time(at("2026-01-01T10:05:00Z")))
    );
    assert_eq!(plan.requeue_after, Some(Duration::from_secs(180)));
}

#[test]
fn forbid_skips_a_run_while_one_is_active() {
    let cronjob = cronjob(ConcurrencyPolicy::Forbid);
    let running = job(&cronjob, "2026-01-01T10:05:00Z", None);
    let plan = jobs::plan(&cronjob, &[running], at("2026-01-01T10:10:00Z")).unwrap();
    assert_eq!(plan.create, None);
    assert!(plan.skipped.is_some());
}

#[test]
fn replace_deletes_the_active_run_and_starts_the_new_one() {
    let cronjob = cronjob(ConcurrencyPolicy::Replace);
    let running = job(&cronjob, "2026-01-01T10:05:00Z", None);
    let plan = jobs::plan(
        &cronjob,
        std::slice::from_ref(&running),
        at("2026-01-01T10:10:00Z"),
    )
    .unwrap();
    assert_eq!(plan.delete, vec![running]);
    assert!(plan.create.is_some());
}

#[test]
fn allow_starts_a_run_while_one_is_active() {
    let cronjob = cronjob(ConcurrencyPolicy::Allow);
    let running = job(&cronjob, "2026-01-01T10:05:00Z", None);
    let plan = jobs::plan(&cronjob, &[running], at("2026-01-01T10:10:00Z")).unwrap();
    assert!(plan.delete.is_empty());
    assert!(plan.create.is_some());
}

#[test]
fn finished_jobs_beyond_the_history_limits_are_deleted_oldest_first() {
    let mut cronjob = cronjob(ConcurrencyPolicy::Allow);
    cronjob.spec.successful_jobs_history_limit = Some(1);
    cronjob.spec.failed_jobs_history_limit = Some(0);
    let jobs = [
        job(&cronjob, "2026-01-01T10:05:00Z", Some("Complete")),
        job(&cronjob, "2026-01-01T10:10:00Z", Some("Complete")),
        job(&cronjob, "2026-01-01T10:15:00Z", Some("Failed")),
    ];
    let plan = jobs::plan(&cronjob, &jobs, at("2026-01-01T10:16:00Z")).unwrap();
    let deleted: Vec<String> = plan.delete.iter().map(|job| job.name_any()).collect();
    assert_eq!(deleted, [jobs[2].name_any(), jobs[0].name_any()]);
    assert!(plan.status.active.is_empty());
}

#[test]
fn a_suspended_cronjob_starts_nothing_and_is_not_requeued() {
    let mut cronjob = cronjob(ConcurrencyPolicy::Allow);
    cronjob.spec.suspend = Some(true);
    let plan = jobs::plan(&cronjob, &[], at("2026-01-01T10:12:00Z")).unwrap();
    assert_eq!((plan.create, plan.requeue_after), (None, None));
}

#[test]
fn a_run_past_its_starting_deadline_is_skipped() {
    let mut cronjob = cronjob(ConcurrencyPolicy::Allow);
    cronjob.spec.starting_deadline_seconds = Some(30);
    let plan = jobs::plan(&cronjob, &[], at("2026-01-01T10:11:00Z")).unwrap();
    assert_eq!(plan.create, None);
    let plan = jobs::plan(&cronjob, &[], at("2026-01-01T10:10:20Z")).unwrap();
    assert!(plan.create.is_some());
}

/// The controller, against an API server: at the next scheduled minute it starts a Job owned by
/// the CronJob, and reports it as active with the scheduled time.
#[tokio::test]
async fn the_controller_starts_a_job_on_schedule_and_reports_it() {
    let env = Environment::builder()
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .start()
        .await
        .expect("the test API server starts");
    if !env.is_real() {
        tokio::time::pause();
    }
    let role = concat!(env!("CARGO_MANIFEST_DIR"), "/config/rbac/role.yaml");
    let controller_client = env
        .client_with_rbac(cronjob_controller::FIELD_MANAGER, &[Path::new(role)])
        .await
        .expect("the controller's roles install");
    let manager = Manager::with_client(controller_client, Options::default(), "test");
    let controller = tokio::spawn(cronjob_controller::run(manager.clone()));

    let mut cronjob = cronjob(ConcurrencyPolicy::Allow);
    cronjob.metadata.uid = None;
    cronjob.metadata.creation_timestamp = None;
    cronjob.spec.schedule = "* * * * *".to_owned();
    let cronjobs = Api::<batchv1::CronJob>::namespaced(env.client(), "default");
    let created = cronjobs
        .create(&PostParams::default(), &cronjob)
        .await
        .unwrap();

    let jobs = Api::<Job>::namespaced(env.client(), "default");
    let waiting = async {
        loop {
            let status = cronjobs.get_status("test-cronjob").await.unwrap().status;
            if let Some(status) = status.filter(|s| !s.active.is_empty()) {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let status = tokio::time::timeout(PATIENCE, waiting)
        .await
        .expect("a Job starts within the next minute and the status lists it");
    let started = jobs.list(&ListParams::default()).await.unwrap().items;
    assert_eq!(started.len(), 1, "{started:?}");
    let job = &started[0];
    assert_eq!(status.active[0].name, job.metadata.name);
    let owner = &job.owner_references()[0];
    assert_eq!(owner.uid, created.uid().unwrap());
    let scheduled = job.annotations()[SCHEDULED_TIME_ANNOTATION].clone();
    assert_eq!(
        status.last_schedule_time.map(|t| t.0.to_string()),
        Some(scheduled.clone())
    );
    assert_eq!(
        at(&scheduled).as_second() % 60,
        0,
        "{scheduled} is on the minute"
    );

    manager.shutdown();
    controller.await.unwrap();
}
