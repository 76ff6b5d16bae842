//! controller-tools' `pkg/webhook/testdata` webhooks and what else `#[webhook]` can say (a URL
//! instead of a path, a custom Service with a port, the core group, the `*` verb, a named
//! configuration, Ignore and Exact): each `+kubebuilder:webhook` marker of `webhook/webhook.go`
//! as a `#[webhook]` attribute. The expected `manifests.yaml` is what controller-gen v0.21 writes
//! for the Go source, byte for byte (`tests/manifests/controller_gen_oracle.rs`).

use webop::prelude::*;

#[webhook(webhook_versions = ["v1"], verbs = ["create", "update"], path = "/validate-testdata-kubebuilder-io-v1-cronjob", mutating = false, failure_policy = "fail", match_policy = "Equivalent", groups = ["testdata.kubebuilder.io"], resources = ["cronjobs"], versions = ["v1"], name = "validation.cronjob.testdata.kubebuilder.io", side_effects = "None", timeout_seconds = 10, admission_review_versions = ["v1", "v1beta1"])]
#[webhook(verbs = "create;update", path = "/validate-testdata-kubebuilder-io-v1-cronjob", mutating = false, failure_policy = "fail", match_policy = "Equivalent", groups = ["testdata.kubebuilder.io"], resources = ["cronjobs"], versions = ["v1"], name = "validation.cronjob.testdata.kubebuilder.io", side_effects = "NoneOnDryRun", timeout_seconds = 10, admission_review_versions = "v1;v1beta1")]
#[webhook(webhook_versions = ["v1"], verbs = ["create", "update"], path = "/mutate-testdata-kubebuilder-io-v1-cronjob", mutating, failure_policy = "fail", match_policy = "Equivalent", groups = ["testdata.kubebuilder.io"], resources = ["cronjobs"], versions = ["v1"], name = "default.cronjob.testdata.kubebuilder.io", side_effects = "None", timeout_seconds = 10, admission_review_versions = ["v1", "v1beta1"], reinvocation_policy = "Never")]
pub struct CronJobWebhooks;

#[webhook(verbs = ["Create", "DELETE"], url = "https://webhooks.example.com:8443/validate-pods", mutating = false, failure_policy = "Ignore", match_policy = "Exact", groups = ["core"], resources = ["pods"], versions = ["v1"], name = "apods.example.com", side_effects = "None", admission_review_versions = ["v1"])]
pub struct PodValidator;

#[webhook(verbs = ["*"], path = "/mutate-apps-v1-deployment", mutating, failure_policy = "fail", groups = ["apps"], resources = ["deployments", "deployments/scale"], versions = ["v1"], name = "mdeployment.example.com", side_effects = "NoneOnDryRun", admission_review_versions = ["v1"], service_name = "my-webhooks", service_namespace = "operators", service_port = 9443, reinvocation_policy = "IfNeeded")]
#[webhook_configuration(mutating, name = "webop-mutating-configuration")]
pub struct DeploymentDefaulter;
