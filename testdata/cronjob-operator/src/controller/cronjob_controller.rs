//! The CronJob controller (kubebuilder's tutorial, internal/controller/cronjob_controller.go):
//! starts a Job for each scheduled time, at most one late run (the latest one missed), following
//! the concurrency policy; deletes finished Jobs beyond the history limits; and reports the
//! active Jobs and the last scheduled time in the status. The decisions are in [`crate::jobs`];
//! this module reads the cache, makes the API calls and wakes up when the next run is due.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::controller::Action;
use kube::runtime::reflector::Store;
use kube::runtime::watcher;
use kube::{Api, Client, ResourceExt};
use webop::manager::Manager;
use webop::prelude::*;

use cronjob_operator_api::v1 as batchv1;

use crate::jobs::{self, Plan, PlanError};

/// The name of this controller, in logs and metrics.
pub const NAME: &str = "cronjob";
/// The name the controller writes under (and its identity in the tests' RBAC).
pub const FIELD_MANAGER: &str = "cronjob-operator-controller";

/// The controller's clock: the wall clock, advanced by the Tokio clock since it was made, so
/// that tests on a paused Tokio clock reach the next scheduled time without waiting for it.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    wall: Timestamp,
    start: tokio::time::Instant,
}

impl Clock {
    pub fn new() -> Self {
        Clock {
            wall: Timestamp::now(),
            start: tokio::time::Instant::now(),
        }
    }

    pub fn now(&self) -> Timestamp {
        let elapsed = SignedDuration::try_from(self.start.elapsed()).unwrap_or(SignedDuration::MAX);
        self.wall.saturating_add(elapsed).unwrap_or(Timestamp::MAX)
    }
}

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

/// What every reconcile gets.
pub struct Context {
    pub client: Client,
    /// The Jobs of every CronJob, kept by a watch.
    pub jobs: Store<Job>,
    pub clock: Clock,
}

/// Why a reconcile failed; the CronJob is retried with exponential backoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// Runs the controller until the manager shuts down.
pub async fn run(manager: Manager) {
    let kit = manager.controller::<batchv1::CronJob>(NAME);
    let (jobs, job_changes) = kit.owned(manager.api::<Job>(), watcher::Config::default());
    let context = Arc::new(Context {
        client: manager.client(),
        jobs,
        clock: Clock::new(),
    });
    // Every namespace, or the one of `--watch-namespace`.
    let api = manager.api::<batchv1::CronJob>();
    let results = kit
        .build(api, watcher::Config::default())
        .owns_stream(job_changes)
        .run(kit.reconcile(reconcile), kit.error_policy(), context);
    kit.drive(results).await;
}

/// The Jobs in the cache whose controller is `cronjob`.
fn jobs_of(cronjob: &batchv1::CronJob, store: &Store<Job>) -> Vec<Job> {
    let uid = cronjob.metadata.uid.as_deref();
    store
        .state()
        .iter()
        .filter(|job| job.metadata.namespace == cronjob.metadata.namespace)
        .filter(|job| {
            job.owner_references()
                .iter()
                .any(|owner| owner.controller == Some(true) && Some(owner.uid.as_str()) == uid)
        })
        .map(|job| Job::clone(job))
        .collect()
}

/// Brings the Jobs of `cronjob` to its schedule and reports them in its status. Called whenever
/// the CronJob or one of its Jobs changes, and when the next run is due; must be idempotent (a
/// run's Job has a name of its own, so it is created once).
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["batch.tutorial.kubebuilder.io"], resources = ["cronjobs/finalizers"], verbs = ["update"])]
#[rbac(groups = ["batch"], resources = ["jobs"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["batch"], resources = ["jobs/status"], verbs = ["get"])]
pub async fn reconcile(cronjob: Arc<batchv1::CronJob>, ctx: Arc<Context>) -> Result<Action, Error> {
    let now = ctx.clock.now();
    let plan = jobs::plan(&cronjob, &jobs_of(&cronjob, &ctx.jobs), now)?;
    let namespace = cronjob.namespace().unwrap_or_default();
    let api: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace);
    write_status(&ctx, &cronjob, &plan).await?;
    for job in &plan.delete {
        delete(&api, job).await?;
    }
    if let Some(reason) = &plan.skipped {
        tracing::info!(%reason, "not starting a run");
    }
    if let Some(job) = &plan.create {
        start(&api, job).await?;
    }
    Ok(match plan.requeue_after {
        // A second more, so that the next reconcile runs after the scheduled time, not at it.
        Some(after) => Action::requeue(after + Duration::from_secs(1)),
        None => Action::await_change(),
    })
}

/// Writes the planned status when it differs from the CronJob's.
async fn write_status(ctx: &Context, cronjob: &batchv1::CronJob, plan: &Plan) -> Result<(), Error> {
    if cronjob.status.as_ref() == Some(&plan.status) {
        return Ok(());
    }
    let api: Api<batchv1::CronJob> =
        Api::namespaced(ctx.client.clone(), &cronjob.namespace().unwrap_or_default());
    // `null` removes a field in a merge patch; an empty list would break `minItems: 1`.
    let active = (!plan.status.active.is_empty()).then_some(&plan.status.active);
    let patch = serde_json::json!({
        "status": {
            "active": active,
            "lastScheduleTime": plan.status.last_schedule_time,
        }
    });
    api.patch_status(
        &cronjob.name_any(),
        &PatchParams::default(),
        &Patch::Merge(&patch),
    )
    .await?;
    Ok(())
}

/// Deletes `job` and its pods; a Job already gone is fine.
async fn delete(api: &Api<Job>, job: &Job) -> Result<(), Error> {
    match api
        .delete(&job.name_any(), &DeleteParams::background())
        .await
    {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(status)) if status.code == 404 => Ok(()),
        Err(error) => Err(error.into()),
    }
}

/// Creates the Job of a run; one that exists already (an earlier reconcile made it) is fine.
async fn start(api: &Api<Job>, job: &Job) -> Result<(), Error> {
    match api.create(&PostParams::default(), job).await {
        Ok(_) => {
            tracing::info!(job = %job.name_any(), "started the Job of a run");
            Ok(())
        }
        Err(kube::Error::Api(status)) if status.code == 409 => Ok(()),
        Err(error) => Err(error.into()),
    }
}
