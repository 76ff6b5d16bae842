//! The webhooks of CronJob v1, for you to fill in (kubebuilder's
//! internal/webhook/v1/cronjob_webhook.go). `make manifests` turns their
//! `#[webhook]` attributes into config/webhook/manifests.yaml; `setup` registers them with the
//! manager (src/webhook/mod.rs).
//!
//! This file is yours: a later `webop create webhook` for CronJob v1 adds the other
//! webhook type above the `+webop:scaffold:` lines and leaves the rest alone.

use webop::prelude::*;
use webop::webhook::{CustomDefaulter, CustomValidator, Denied, FieldError, Warnings, Webhooks};

use cronjob_operator_api::v1::{ConcurrencyPolicy, CronJob};

use crate::schedule::Schedule;

/// Registers the webhooks of CronJob v1, with the tutorial's defaults.
pub fn setup(mut webhooks: Webhooks) -> Webhooks {
    webhooks = webhooks.defaulter::<CronJob, _>(CronJobCustomDefaulter::TUTORIAL);
    webhooks = webhooks.validator::<CronJob, _>(CronJobCustomValidator);
    // +webop:scaffold:webhookregistrations
    webhooks
}

/// The longest name of a CronJob: its Jobs are named `<name>-<11-digit time>`, and a Job's name
/// is a DNS-1035 label of at most 63 characters (`validationutils.DNS1035LabelMaxLength - 11`).
pub const MAX_NAME_LENGTH: usize = 63 - 11;

/// Sets the defaults of CronJob objects when they are created or updated, before the API server
/// validates and stores them (a mutating admission webhook): the fields the tutorial's
/// `CronJobDefaulter` fills in when they are left out.
#[webhook(
    path = "/mutate-batch-tutorial-kubebuilder-io-v1-cronjob",
    mutating,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["batch.tutorial.kubebuilder.io"],
    resources = ["cronjobs"],
    verbs = ["create", "update"],
    versions = ["v1"],
    name = "mcronjob-v1.kb.io",
    admission_review_versions = ["v1"]
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CronJobCustomDefaulter {
    pub concurrency_policy: ConcurrencyPolicy,
    pub suspend: bool,
    pub successful_jobs_history_limit: i32,
    pub failed_jobs_history_limit: i32,
}

impl CronJobCustomDefaulter {
    /// The tutorial's defaults: Allow, not suspended, 3 successful and 1 failed Job kept.
    pub const TUTORIAL: Self = CronJobCustomDefaulter {
        concurrency_policy: ConcurrencyPolicy::Allow,
        suspend: false,
        successful_jobs_history_limit: 3,
        failed_jobs_history_limit: 1,
    };

    /// Fills in every field left out; a field that is set keeps its value.
    pub fn apply_defaults(&self, cronjob: &mut CronJob) {
        let spec = &mut cronjob.spec;
        spec.concurrency_policy
            .get_or_insert(self.concurrency_policy);
        spec.suspend.get_or_insert(self.suspend);
        spec.successful_jobs_history_limit
            .get_or_insert(self.successful_jobs_history_limit);
        spec.failed_jobs_history_limit
            .get_or_insert(self.failed_jobs_history_limit);
    }
}

impl CustomDefaulter<CronJob> for CronJobCustomDefaulter {
    async fn default(&self, cronjob: &mut CronJob) -> Result<(), Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "defaulting CronJob");
        self.apply_defaults(cronjob);
        Ok(())
    }
}

/// Validates CronJob objects when they are created or updated (a validating admission
/// webhook): that the schedule parses, and that the name leaves room for the time suffix of the
/// Jobs (`ObjectMeta.name` is not in the CRD's schema, so a schema rule cannot say it).
#[webhook(
    path = "/validate-batch-tutorial-kubebuilder-io-v1-cronjob",
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["batch.tutorial.kubebuilder.io"],
    resources = ["cronjobs"],
    verbs = ["create", "update"],
    versions = ["v1"],
    name = "vcronjob-v1.kb.io",
    admission_review_versions = ["v1"]
)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CronJobCustomValidator;

/// The tutorial's `validateCronJob`: every problem of the name and the spec, as field errors.
pub fn validate(cronjob: &CronJob) -> Result<(), Denied> {
    let errors: Vec<FieldError> = [validate_name(cronjob), validate_schedule(cronjob)]
        .into_iter()
        .flatten()
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Denied::invalid(errors))
    }
}

fn validate_name(cronjob: &CronJob) -> Option<FieldError> {
    let name = cronjob.metadata.name.as_deref().unwrap_or_default();
    (name.len() > MAX_NAME_LENGTH).then(|| {
        FieldError::invalid(
            "metadata.name",
            name,
            format!("must be no more than {MAX_NAME_LENGTH} characters"),
        )
    })
}

fn validate_schedule(cronjob: &CronJob) -> Option<FieldError> {
    let schedule = &cronjob.spec.schedule;
    Schedule::parse(schedule)
        .err()
        .map(|error| FieldError::invalid("spec.schedule", schedule, error.reason))
}

impl CustomValidator<CronJob> for CronJobCustomValidator {
    async fn validate_create(&self, cronjob: &CronJob) -> Result<Warnings, Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the creation of CronJob");
        validate(cronjob).map(|()| Vec::new())
    }

    async fn validate_update(&self, _old: &CronJob, cronjob: &CronJob) -> Result<Warnings, Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the update of CronJob");
        validate(cronjob).map(|()| Vec::new())
    }

    async fn validate_delete(&self, cronjob: &CronJob) -> Result<Warnings, Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the deletion of CronJob");
        Ok(Vec::new())
    }
}
// +webop:scaffold:webhooks
