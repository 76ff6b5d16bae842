//! The decisions of the CronJob controller, apart from any API call so that they are tested on
//! their own (kubebuilder's tutorial makes them inline in `Reconcile`): which Jobs of a CronJob
//! are active, which finished ones exceed the history limits, and whether a run is due now.

use std::time::Duration;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference, Time};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::Resource;

use cronjob_operator_api::v1::{ConcurrencyPolicy, CronJob, CronJobStatus};

use crate::schedule::{ParseError, RunsError, Schedule};

/// The annotation that records on each Job the scheduled time it runs for.
pub const SCHEDULED_TIME_ANNOTATION: &str = "batch.tutorial.kubebuilder.io/scheduled-at";

/// What the controller does for a CronJob at one reconcile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The status the CronJob should have: its active Jobs and the last scheduled time.
    pub status: CronJobStatus,
    /// Jobs to delete: finished ones beyond the history limits, and with `Replace` the active
    /// ones a new run replaces.
    pub delete: Vec<Job>,
    /// The Job of the run that is due, if one is.
    pub create: Option<Job>,
    /// When the next run is due (none while suspended).
    pub requeue_after: Option<Duration>,
    /// Why a due run does not start.
    pub skipped: Option<String>,
}

/// Why the controller cannot plan: the CronJob asks for something impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Schedule(#[from] ParseError),
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error("the CronJob has no creation time yet")]
    NotCreated,
}

/// How a Job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    Complete,
    Failed,
}

/// How `job` ended: a `Complete` or `Failed` condition that is `True`; `None` while it runs.
pub fn finished(job: &Job) -> Option<Finished> {
    let conditions = job.status.as_ref()?.conditions.as_ref()?;
    conditions
        .iter()
        .filter(|condition| condition.status == "True")
        .find_map(|condition| match condition.type_.as_str() {
            "Complete" => Some(Finished::Complete),
            "Failed" => Some(Finished::Failed),
            _ => None,
        })
}

/// The scheduled time recorded on `job`, if it has a readable one.
pub fn scheduled_time(job: &Job) -> Option<Timestamp> {
    job.metadata
        .annotations
        .as_ref()?
        .get(SCHEDULED_TIME_ANNOTATION)?
        .parse()
        .ok()
}

/// What to do for `cronjob`, whose Jobs are `jobs`, at `now`.
pub fn plan(cronjob: &CronJob, jobs: &[Job], now: Timestamp) -> Result<Plan, PlanError> {
    let spec = &cronjob.spec;
    let mut active: Vec<&Job> = Vec::new();
    let mut successful: Vec<&Job> = Vec::new();
    let mut failed: Vec<&Job> = Vec::new();
    for job in jobs {
        match finished(job) {
            None => active.push(job),
            Some(Finished::Complete) => successful.push(job),
            Some(Finished::Failed) => failed.push(job),
        }
    }
    active.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let last_schedule_time = jobs.iter().filter_map(scheduled_time).max();

    let mut plan = Plan {
        status: CronJobStatus {
            active: active.iter().map(|job| reference(job)).collect(),
            last_schedule_time: last_schedule_time.map(Time),
            conditions: cronjob
                .status
                .as_ref()
                .map(|status| status.conditions.clone())
                .unwrap_or_default(),
        },
        ..Plan::default()
    };
    plan.delete
        .extend(beyond_limit(failed, spec.failed_jobs_history_limit));
    plan.delete
        .extend(beyond_limit(successful, spec.successful_jobs_history_limit));

    if spec.suspend == Some(true) {
        return Ok(plan);
    }
    let schedule = Schedule::parse(&spec.schedule)?;
    let last = match last_schedule_time {
        Some(time) => time,
        None => {
            cronjob
                .metadata
                .creation_timestamp
                .as_ref()
                .ok_or(PlanError::NotCreated)?
                .0
        }
    };
    let runs = schedule.runs(last, spec.starting_deadline_seconds, now)?;
    plan.requeue_after =
        Some(Duration::try_from(runs.next.duration_since(now)).unwrap_or_default());
    let Some(missed) = runs.missed else {
        return Ok(plan);
    };
    if let Some(deadline) = spec.starting_deadline_seconds
        && missed + SignedDuration::from_secs(deadline) < now
    {
        plan.skipped = Some(format!(
            "missed the starting deadline of the run at {missed}"
        ));
        return Ok(plan);
    }
    match spec.concurrency_policy.unwrap_or_default() {
        ConcurrencyPolicy::Forbid if !active.is_empty() => {
            plan.skipped = Some(format!(
                "concurrency policy forbids the run at {missed}: {} Job(s) still active",
                active.len()
            ));
            return Ok(plan);
        }
        ConcurrencyPolicy::Replace => plan.delete.extend(active.into_iter().cloned()),
        ConcurrencyPolicy::Allow | ConcurrencyPolicy::Forbid => {}
    }
    plan.create = Some(job_for(cronjob, missed));
    Ok(plan)
}

/// The oldest of `finished` beyond `limit` (by start time; none without a limit).
fn beyond_limit(mut finished: Vec<&Job>, limit: Option<i32>) -> Vec<Job> {
    let Some(limit) = limit else {
        return Vec::new();
    };
    let keep = usize::try_from(limit).unwrap_or(0);
    finished.sort_by_key(|job| {
        job.status
            .as_ref()
            .and_then(|s| s.start_time.clone())
            .map(|t| t.0)
    });
    let excess = finished.len().saturating_sub(keep);
    finished.into_iter().take(excess).cloned().collect()
}

/// The reference to `job` that the CronJob's status lists.
fn reference(job: &Job) -> ObjectReference {
    ObjectReference {
        api_version: Some("batch/v1".to_owned()),
        kind: Some("Job".to_owned()),
        name: job.metadata.name.clone(),
        namespace: job.metadata.namespace.clone(),
        uid: job.metadata.uid.clone(),
        resource_version: job.metadata.resource_version.clone(),
        ..ObjectReference::default()
    }
}

/// The Job of `cronjob`'s run scheduled at `time`: named after the CronJob and the time (so that
/// a run is created once however often the reconcile runs), with the template's labels and
/// annotations, the scheduled time, and the CronJob as its controller.
pub fn job_for(cronjob: &CronJob, time: Timestamp) -> Job {
    let template = &cronjob.spec.job_template;
    let template_meta = template.metadata.clone().unwrap_or_default();
    let mut annotations = template_meta.annotations.unwrap_or_default();
    annotations.insert(SCHEDULED_TIME_ANNOTATION.to_owned(), time.to_string());
    let name = cronjob.metadata.name.as_deref().unwrap_or_default();
    let owner = OwnerReference {
        api_version: CronJob::api_version(&()).into_owned(),
        kind: CronJob::kind(&()).into_owned(),
        name: name.to_owned(),
        uid: cronjob.metadata.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    };
    Job {
        metadata: ObjectMeta {
            name: Some(format!("{name}-{}", time.as_second())),
            namespace: cronjob.metadata.namespace.clone(),
            labels: template_meta.labels,
            annotations: Some(annotations),
            owner_references: Some(vec![owner]),
            ..ObjectMeta::default()
        },
        spec: template.spec.clone(),
        status: None,
    }
}
