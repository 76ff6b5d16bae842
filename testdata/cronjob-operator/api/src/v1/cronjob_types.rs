//! CronJob v1, the storage version: kubebuilder's CronJob tutorial (`api/v1/cronjob_types.go`)
//! in Rust. `make manifests` runs `webop manifests --max-desc-len 0`, as the tutorial's Makefile
//! runs controller-gen with `crd:maxDescLen=0`: the CRD is the same, byte for byte.

use k8s_openapi::api::batch::v1 as batchv1;
use k8s_openapi::api::core::v1 as corev1;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use webop::prelude::*;

/// CronJobSpec defines the desired state of CronJob
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "batch.tutorial.kubebuilder.io",
    version = "v1",
    kind = "CronJob"
)]
#[storage_version]
#[resource(doc = "CronJob is the Schema for the cronjobs API", spec_required)]
#[subresource(status)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
    #[validate(min_length = 0)]
    pub schedule: String,

    /// startingDeadlineSeconds defines in seconds for starting the job if it misses scheduled
    /// time for any reason.  Missed jobs executions will be counted as failed ones.
    #[validate(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,

    /// concurrencyPolicy specifies how to treat concurrent executions of a Job.
    /// Valid values are:
    /// - "Allow" (default): allows CronJobs to run concurrently;
    /// - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
    /// - "Replace": cancels currently running job and replaces it with a new one
    #[schema(default = "Allow")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,

    /// suspend tells the controller to suspend subsequent executions, it does
    /// not apply to already started executions.  Defaults to false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// jobTemplate defines the job that will be created when executing a CronJob.
    pub job_template: batchv1::JobTemplateSpec,

    /// successfulJobsHistoryLimit defines the number of successful finished jobs to retain.
    /// This is a pointer to distinguish between explicit zero and not specified.
    #[validate(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,

    /// failedJobsHistoryLimit defines the number of failed finished jobs to retain.
    /// This is a pointer to distinguish between explicit zero and not specified.
    #[validate(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_jobs_history_limit: Option<i32>,
}

/// ConcurrencyPolicy describes how the job will be handled.
/// Only one of the following concurrent policies may be specified.
/// If none of the following policies is specified, the default one
/// is AllowConcurrent.
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConcurrencyPolicy {
    /// Allow allows CronJobs to run concurrently.
    #[default]
    Allow,
    /// Forbid forbids concurrent runs, skipping next run if previous
    /// hasn't finished yet.
    Forbid,
    /// Replace cancels currently running job and replaces it with a new one.
    Replace,
}

/// CronJobStatus defines the observed state of CronJob.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// active defines a list of pointers to currently running jobs.
    #[schema(list_type = "atomic")]
    #[validate(min_items = 1, max_items = 10)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<corev1::ObjectReference>,

    /// lastScheduleTime defines when was the last time the job was successfully scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<metav1::Time>,

    /// conditions represent the current state of the CronJob resource.
    /// Each condition has a unique type and reflects the status of a specific aspect of the resource.
    ///
    /// Standard condition types include:
    /// - "Available": the resource is fully functional
    /// - "Progressing": the resource is being created or updated
    /// - "Degraded": the resource failed to reach or maintain its desired state
    ///
    /// The status of each condition is one of True, False, or Unknown.
    #[schema(list_type = "map", list_map_key = ["type"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<metav1::Condition>,
}
