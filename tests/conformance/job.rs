//! controller-tools' `pkg/crd/testdata/job`: a kind whose spec embeds the spec of another API
//! version's kind (`unserved.CronJobSpec`, the `cronjob` case's v1beta1).
//!
//! Expected YAML verified byte for byte against controller-gen v0.21's golden
//! `pkg/crd/testdata/testdata.kubebuilder.io_jobs.yaml` (but for the version annotation).
//!
//! Go:
//! ```go
//! // +groupName=testdata.kubebuilder.io
//! // +versionName=v1beta1
//! package job
//!
//! // +kubebuilder:object:root=true
//! // +kubebuilder:subresource:status
//! // +kubebuilder:resource:singular=job
//!
//! // JobSpec is the spec for the jobs API.
//! type JobSpec struct {
//!     // FriendlyName is the friendly name for the job.
//!     //
//!     // +kubebuilder:validation:MinLength=5
//!     FriendlyName string `json:"friendlyName"`
//!
//!     // Count is the number of times a job may be executed.
//!     //
//!     // +kubebuilder:validation:Minimum=0
//!     // +kubebuilder:validation:Maximum=10
//!     Count int32 `json:"count"`
//!
//!     // CronJob is the spec for the related CrongJob.
//!     CronnJob unserved.CronJobSpec `json:"crongJob"`
//! }
//!
//! // Job is the Schema for the jobs API
//! type Job struct {
//!     metav1.TypeMeta   `json:",inline"`
//!     metav1.ObjectMeta `json:"metadata,omitempty"`
//!     Spec JobSpec `json:"spec"`
//! }
//! ```
//!
//! The `+kubebuilder:subresource:status` marker sits on `JobSpec`, not on the root, so the CRD
//! has no subresource.

use webop::prelude::*;

use crate::cronjob::unserved;

/// JobSpec is the spec for the jobs API.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "testdata.kubebuilder.io", version = "v1beta1", kind = "Job")]
#[resource(
    doc = "Job is the Schema for the jobs API",
    singular = "job",
    spec_required
)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    /// FriendlyName is the friendly name for the job.
    #[validate(min_length = 5)]
    pub friendly_name: String,

    /// Count is the number of times a job may be executed.
    #[validate(minimum = 0, maximum = 10)]
    pub count: i32,

    /// CronJob is the spec for the related CrongJob.
    #[serde(rename = "crongJob")]
    pub cronn_job: unserved::CronJobSpec,
}

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    vec![Job::crd()]
}
