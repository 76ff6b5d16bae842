
/// Validates {{ kind }} objects when they are created or updated (a validating admission
/// webhook): what CEL rules on the schema cannot check, such as other objects.
// TODO(user): add "delete" to `verbs` to validate deletions as well.
#[webhook(
    path = "{{ validation_path }}",
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["{{ group_domain }}"],
    resources = ["{{ plural }}"],
    verbs = ["create", "update"],
    versions = ["{{ version }}"],
    name = "v{{ kind_role }}-{{ version }}.kb.io",
    admission_review_versions = ["v1"]
)]
#[derive(Clone, Copy, Debug, Default)]
pub struct {{ kind }}CustomValidator;

impl webop::webhook::CustomValidator<{{ kind }}> for {{ kind }}CustomValidator {
    async fn validate_create(
        &self,
        {{ kind_var }}: &{{ kind }},
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?{{ kind_var }}.metadata.name, "validating the creation of {{ kind }}");

        // TODO(user): fill in your validation logic upon object creation.

        Ok(Vec::new())
    }

    async fn validate_update(
        &self,
        _old: &{{ kind }},
        {{ kind_var }}: &{{ kind }},
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?{{ kind_var }}.metadata.name, "validating the update of {{ kind }}");

        // TODO(user): fill in your validation logic upon object update.

        Ok(Vec::new())
    }

    async fn validate_delete(
        &self,
        {{ kind_var }}: &{{ kind }},
    ) -> Result<webop::webhook::Warnings, webop::webhook::Denied> {
        tracing::info!(name = ?{{ kind_var }}.metadata.name, "validating the deletion of {{ kind }}");

        // TODO(user): fill in your validation logic upon object deletion.

        Ok(Vec::new())
    }
}
