//! `pkg/crd/testdata/unserved/types.go`: version v1beta1 of CronJob, not served; its spec is
//! also used by the `job` case.
//!
//! Go: `cronjob/unserved/types.go`.

use webop::prelude::*;

/// CronJobSpec defines the desired state of CronJob
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1beta1",
    kind = "CronJob"
)]
#[resource(
    doc = "CronJob is the Schema for the cronjobs API",
    singular = "mycronjob"
)]
#[subresource(status = "()")]
#[unserved_version]
#[metadata(annotations = [
    "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools",
    "cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca",
])]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// This tests that markers that are allowed on both fields and types are applied to fields
    #[validate(min_length = 4)]
    pub two_of_a_kind_part0: String,

    #[validate(minimum = -2, maximum = 2, multiple_of = 2)]
    pub int32_with_validations: i32,
}
