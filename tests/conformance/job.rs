//! controller-tools' `pkg/crd/testdata/job`: a kind whose spec embeds the spec of another API
//! version's kind (`unserved.CronJobSpec`, the `cronjob` case's v1beta1).
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `job/types.go`.
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
