//! CronJob v2 is a spoke of the conversion webhook of CronJob (kubebuilder's
//! api/v2/cronjob_conversion.go): it converts to and from the hub v1, the version the API
//! server stores. The schedule is the one field that differs: v2's `CronSchedule` of cron
//! fields is v1's five-field string, a field left out being `*`.

use webop::webhook::{ConversionError, Convertible};

use super::{CronField, CronJob, CronJobSpec, CronJobStatus, CronSchedule};
use crate::v1;

/// The cron fields of a schedule, in the order of a five-field cron line.
const FIELDS: usize = 5;

impl CronSchedule {
    /// The five-field cron line of this schedule, `*` for a field it leaves out.
    pub fn to_cron_line(&self) -> String {
        [
            &self.minute,
            &self.hour,
            &self.day_of_month,
            &self.month,
            &self.day_of_week,
        ]
        .map(|field| field.as_ref().map_or("*", |field| field.0.as_str()))
        .join(" ")
    }

    /// The schedule of a five-field cron line, `*` being a field left out; any other number of
    /// fields is an error naming the line (v2 has no place for seconds or a `@daily` macro).
    pub fn from_cron_line(line: &str) -> Result<Self, ConversionError> {
        let parts: Vec<&str> = line.split(' ').collect();
        let [minute, hour, day_of_month, month, day_of_week] = parts[..] else {
            return Err(ConversionError::new(format!(
                "invalid schedule {line:?}: not a standard {FIELDS}-field schedule"
            )));
        };
        let field = |raw: &str| (raw != "*").then(|| CronField(raw.to_owned()));
        Ok(CronSchedule {
            minute: field(minute),
            hour: field(hour),
            day_of_month: field(day_of_month),
            month: field(month),
            day_of_week: field(day_of_week),
        })
    }
}

impl Convertible<v1::CronJob> for CronJob {
    fn convert_to(&self) -> Result<v1::CronJob, ConversionError> {
        let spec = &self.spec;
        Ok(v1::CronJob {
            metadata: self.metadata.clone(),
            spec: v1::CronJobSpec {
                schedule: spec.schedule.to_cron_line(),
                starting_deadline_seconds: spec.starting_deadline_seconds,
                concurrency_policy: spec.concurrency_policy,
                suspend: spec.suspend,
                job_template: spec.job_template.clone(),
                successful_jobs_history_limit: spec.successful_jobs_history_limit,
                failed_jobs_history_limit: spec.failed_jobs_history_limit,
            },
            status: self.status.as_ref().map(|status| v1::CronJobStatus {
                active: status.active.clone(),
                last_schedule_time: status.last_schedule_time.clone(),
                conditions: status.conditions.clone(),
            }),
        })
    }

    fn convert_from(hub: &v1::CronJob) -> Result<Self, ConversionError> {
        let spec = &hub.spec;
        Ok(CronJob {
            metadata: hub.metadata.clone(),
            spec: CronJobSpec {
                schedule: CronSchedule::from_cron_line(&spec.schedule)?,
                starting_deadline_seconds: spec.starting_deadline_seconds,
                concurrency_policy: spec.concurrency_policy,
                suspend: spec.suspend,
                job_template: spec.job_template.clone(),
                successful_jobs_history_limit: spec.successful_jobs_history_limit,
                failed_jobs_history_limit: spec.failed_jobs_history_limit,
            },
            status: hub.status.as_ref().map(|status| CronJobStatus {
                active: status.active.clone(),
                last_schedule_time: status.last_schedule_time.clone(),
                conditions: status.conditions.clone(),
            }),
        })
    }
}
