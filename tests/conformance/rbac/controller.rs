//! controller-tools' `pkg/rbac/testdata/controller.go`: every `+kubebuilder:rbac` marker as an
//! `#[rbac]` attribute, in the same order, so the role file shows controller-gen's merging,
//! deduplication and sorting of rules, `core`/`""` groups, namespaced `Role`s and custom role
//! names.
//!
//! The expected `role.yaml` (written by `webop::manifests::role_file` from the rules
//! `webop manifests` scans out of this file) is what controller-gen v0.21 writes for the same
//! markers in Go, `rbac/controller.go`, byte for byte (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Each Go marker `groups=a;b,resources=r,verbs=v1;v2,namespace=n,roleName=x` is
//! `#[rbac(groups = ["a", "b"], resources = ["r"], verbs = ["v1", "v2"], namespace = "n",
//! role_name = "x")]`; `resourceNames` is `resource_names` and `urls` is `urls`.

use webop::prelude::*;

#[rbac(groups = ["batch.io"], resources = ["cronjobs"], verbs = ["get", "watch", "create"])]
#[rbac(groups = ["batch.io"], resources = ["cronjobs/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["art"], resources = ["jobs"], verbs = ["get"])]
#[rbac(groups = ["wave"], resources = ["jobs"], verbs = ["get"], namespace = "zoo")]
#[rbac(groups = ["batch", "batch", "batch"], resources = ["jobs/status"], verbs = ["watch"])]
#[rbac(groups = ["batch", "cron"], resources = ["jobs/status"], verbs = ["create", "get"])]
#[rbac(groups = ["art"], resources = ["jobs"], verbs = ["get"], namespace = "zoo")]
#[rbac(groups = ["cron", "batch"], resources = ["jobs/status"], verbs = ["get", "create"])]
#[rbac(groups = ["batch"], resources = ["jobs/status"], verbs = ["watch", "watch"])]
#[rbac(groups = ["art"], resources = ["jobs"], verbs = ["get"], namespace = "park")]
#[rbac(
    groups = ["batch.io"],
    resources = ["cronjobs"],
    resource_names = ["foo", "bar", "baz"],
    verbs = ["get", "watch"]
)]
#[rbac(groups = ["deduplicate-verbs"], resources = ["some"], verbs = ["get", "list"])]
#[rbac(groups = ["deduplicate-verbs"], resources = ["some"], verbs = ["get"])]
#[rbac(groups = ["deduplicate-verbs"], resources = ["some"], verbs = ["list"])]
#[rbac(groups = ["deduplicate-resources"], resources = ["one"], verbs = ["create"])]
#[rbac(groups = ["deduplicate-resources"], resources = ["two"], verbs = ["create"])]
#[rbac(groups = ["deduplicate-resources"], resources = ["three"], verbs = ["create"])]
#[rbac(groups = ["deduplicate-groups1"], resources = ["foo"], verbs = ["patch"])]
#[rbac(groups = ["deduplicate-groups2"], resources = ["foo"], verbs = ["patch"])]
#[rbac(groups = ["deduplicate-groups3"], resources = ["foo"], verbs = ["patch"])]
#[rbac(groups = ["deduplicate-all"], resources = ["foo", "bar"], verbs = ["get", "list"])]
#[rbac(groups = ["deduplicate-all"], resources = ["foo"], verbs = ["get"])]
#[rbac(groups = ["deduplicate-all"], resources = ["bar"], verbs = ["list"])]
#[rbac(groups = ["deduplicate-groups4"], resources = ["xyz"], verbs = ["get", "update", "patch"])]
#[rbac(groups = ["deduplicate-groups4"], resources = ["xyz"], verbs = ["*"])]
#[rbac(groups = ["deduplicate-all-group"], resources = ["foo", "bar"], verbs = ["get", "list"])]
#[rbac(groups = ["not-deduplicate-resources"], resources = ["some"], verbs = ["get"])]
#[rbac(groups = ["not-deduplicate-resources"], resources = ["another"], verbs = ["list"])]
#[rbac(groups = ["not-deduplicate-groups1"], resources = ["some"], verbs = ["get"])]
#[rbac(groups = ["not-deduplicate-groups2"], resources = ["some"], verbs = ["list"])]
#[rbac(urls = ["/url-to-duplicate"], verbs = ["get"])]
#[rbac(urls = ["/another/url-to-duplicate"], verbs = ["get"])]
#[rbac(groups = ["core"], resources = ["deduplicate"], verbs = ["list"])]
#[rbac(groups = [""], resources = ["me"], verbs = ["list"])]
#[rbac(
    groups = ["core", "", "some-other-to-deduplicate-with-core"],
    resources = ["me"],
    verbs = ["list", "get"]
)]
#[rbac(
    groups = ["deduplicate-groups5"],
    resources = ["abc"],
    verbs = ["get", "update", "patch", "create"],
    namespace = "here"
)]
#[rbac(groups = ["deduplicate-groups5"], resources = ["abc"], verbs = ["*"], namespace = "here")]
// Test custom roleName to avoid conflicts
#[rbac(
    groups = ["apps"],
    namespace = "infrastructure",
    role_name = "infra-deployment-manager",
    resources = ["deployments"],
    verbs = ["get", "list", "watch", "update", "patch"]
)]
#[rbac(
    groups = [""],
    namespace = "users",
    role_name = "user-secrets-reader",
    resources = ["secrets"],
    verbs = ["get", "list", "watch"]
)]
// Test multiple markers with same custom roleName in same namespace (should merge)
#[rbac(
    groups = ["apps"],
    namespace = "infrastructure",
    role_name = "infra-deployment-manager",
    resources = ["statefulsets"],
    verbs = ["get", "list"]
)]
// Test backward compatibility - no roleName specified (uses default)
#[rbac(
    groups = ["monitoring"],
    namespace = "observability",
    resources = ["prometheuses"],
    verbs = ["get", "list"]
)]
// Only its attributes matter here.
#[allow(dead_code)]
pub struct Reconciler;
