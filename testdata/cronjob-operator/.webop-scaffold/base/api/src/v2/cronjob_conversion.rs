//! CronJob v2 is a spoke of the conversion webhook of CronJob (kubebuilder's
//! api/v2/cronjob_conversion.go): it converts to and from the hub v1,
//! the version the API server stores.
//!
//! webop wrote the conversion of the fields both versions have with the same type.
//! TODO(user): convert the fields that differ, so that a round trip loses nothing.

use webop::webhook::{ConversionError, Convertible};

use super::CronJob;
use crate::v1;

impl Convertible<v1::CronJob> for CronJob {
    fn convert_to(&self) -> Result<v1::CronJob, ConversionError> {
        Ok(v1::CronJob {
            metadata: self.metadata.clone(),
            spec: v1::CronJobSpec {
                foo: self.spec.foo.clone(),
            },
            status: self.status.as_ref().map(|status| v1::CronJobStatus {
                conditions: status.conditions.clone(),
            }),
        })
    }

    fn convert_from(hub: &v1::CronJob) -> Result<Self, ConversionError> {
        Ok(super::CronJob {
            metadata: hub.metadata.clone(),
            spec: super::CronJobSpec {
                foo: hub.spec.foo.clone(),
            },
            status: hub.status.as_ref().map(|status| super::CronJobStatus {
                conditions: status.conditions.clone(),
            }),
        })
    }
}
