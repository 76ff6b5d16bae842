
/// Sets the defaults of {{ kind }} objects when they are created or updated, before the API server
/// validates and stores them (a mutating admission webhook).
#[webhook(
    path = "{{ defaulting_path }}",
    mutating,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["{{ group_domain }}"],
    resources = ["{{ plural }}"],
    verbs = ["create", "update"],
    versions = ["{{ version }}"],
    name = "m{{ kind_role }}-{{ version }}.kb.io",
    admission_review_versions = ["v1"]
)]
#[derive(Clone, Copy, Debug, Default)]
pub struct {{ kind }}CustomDefaulter;

impl webop::webhook::CustomDefaulter<{{ kind }}> for {{ kind }}CustomDefaulter {
    async fn default(&self, {{ kind_var }}: &mut {{ kind }}) -> Result<(), webop::webhook::Denied> {
        tracing::info!(name = ?{{ kind_var }}.metadata.name, "defaulting {{ kind }}");

        // TODO(user): fill in your defaulting logic.

        Ok(())
    }
}
