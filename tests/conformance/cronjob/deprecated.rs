//! `pkg/crd/testdata/deprecated/types.go`: version v1beta2 of CronJob, deprecated, with neither
//! spec nor status but the status subresource.
//!
//! Go: `cronjob/deprecated/types.go`.
//!
//! A kind without a spec derives from a unit struct.

use webop::prelude::*;

#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "testdata.kubebuilder.io",
    version = "v1beta2",
    kind = "CronJob"
)]
#[resource(
    doc = "CronJob is the Schema for the cronjobs API",
    singular = "mycronjob"
)]
#[subresource(status = "()")]
#[deprecated_version(
    warning = "use v1 instead, this version causes your data center to catch fire when used on Tuesdays"
)]
#[metadata(annotations = [
    "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools",
    "cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca",
])]
pub struct CronJobSpec;
