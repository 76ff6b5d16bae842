//! The webhooks of CronJob v1, for you to fill in (kubebuilder's
//! internal/webhook/v1/cronjob_webhook.go). `make manifests` turns their
//! `#[webhook]` attributes into config/webhook/manifests.yaml; `setup` registers them with the
//! manager (src/webhook/mod.rs).
//!
//! This file is yours: a later `webop create webhook` for CronJob v1 adds the other
//! webhook type above the `+webop:scaffold:` lines and leaves the rest alone.

use webop::prelude::*;
use webop::webhook::Webhooks;

use cronjob_operator_api::v1::CronJob;

/// Registers the webhooks of CronJob v1.
pub fn setup(mut webhooks: Webhooks) -> Webhooks {
    webhooks = webhooks.defaulter::<CronJob, _>(CronJobCustomDefaulter);
    webhooks = webhooks.validator::<CronJob, _>(CronJobCustomValidator);
    // +webop:scaffold:webhookregistrations
    webhooks
}

// TODO(user): EDIT THIS FILE! THIS IS SCAFFOLDING FOR YOU TO OWN!
/// Sets the defaults of CronJob objects when they are created or updated, before the API server
/// validates and stores them (a mutating admission webhook).
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
#[derive(Clone, Copy, Debug, Default)]
pub struct CronJobCustomDefaulter;

impl webop::webhook::CustomDefaulter<CronJob> for CronJobCustomDefaulter {
    async fn default(&self, cronjob: &mut CronJob) -> Result<(), webop::webhook::Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "defaulting CronJob");

        // TODO(user): fill in your defaulting logic.

        Ok(())
    }
}
/// Validates CronJob objects when they are created or updated (a validating admission
/// webhook): what CEL rules on the schema cannot check, such as other objects.
// TODO(user): add "delete" to `verbs` to validate deletions as well.
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

impl webop::webhook::CustomValidator<CronJob> for CronJobCustomValidator {
    async fn validate_create(
        &self,
        cronjob: &CronJob,
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the creation of CronJob");

        // TODO(user): fill in your validation logic upon object creation.

        Ok(Vec::new())
    }

    async fn validate_update(
        &self,
        _old: &CronJob,
        cronjob: &CronJob,
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the update of CronJob");

        // TODO(user): fill in your validation logic upon object update.

        Ok(Vec::new())
    }

    async fn validate_delete(
        &self,
        cronjob: &CronJob,
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?cronjob.metadata.name, "validating the deletion of CronJob");

        // TODO(user): fill in your validation logic upon object deletion.

        Ok(Vec::new())
    }
}
// +webop:scaffold:webhooks
