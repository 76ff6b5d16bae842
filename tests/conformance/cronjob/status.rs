//! `CronJobStatus` of `pkg/crd/testdata/cronjob_types.go` (version v1).

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use webop::prelude::*;

use super::types::{Duration, Time2, Url, Url2, Url3, Url4};

/// CronJobStatus defines the observed state of CronJob
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// A list of pointers to currently running jobs.
    pub active: Option<Vec<ObjectReference>>,

    /// Information when was the last time the job was successfully scheduled.
    pub last_schedule_time: Option<Time>,

    /// Information when was the last time the job was successfully scheduled.
    pub last_schedule_time2: Option<Time2>,

    /// Information about the last time the job was successfully scheduled,
    /// with microsecond precision.
    pub last_schedule_micro_time: Option<MicroTime>,

    /// LastActiveLogURL specifies the logging url for the last started job
    #[serde(rename = "lastActiveLogURL")]
    pub last_active_log_url: Option<Url>,

    /// LastActiveLogURL2 specifies the logging url for the last started job
    #[serde(rename = "lastActiveLogURL2")]
    pub last_active_log_url2: Option<Url2>,

    /// LastActiveLogURL3 specifies the logging url for the last started job
    #[serde(rename = "lastActiveLogURL3")]
    pub last_active_log_url3: Option<Url3>,

    /// LastActiveLogURL4 specifies the logging url for the last started job
    #[serde(rename = "lastActiveLogURL4")]
    pub last_active_log_url4: Option<Url4>,

    #[serde(rename = "duration")]
    pub runtime: Option<Duration>,
}
