//! controller-tools' CronJob API: `pkg/crd/testdata/cronjob_types.go` (v1, the storage version,
//! which exercises almost every marker), `unserved/types.go` (v1beta1, not served) and
//! `deprecated/types.go` (v1beta2, deprecated, without spec), one CRD of three versions.
//!
//! The expected YAML is what controller-gen v0.21 writes for the Go source, byte for byte but for
//! the version annotation (`tests/manifests/controller_gen_oracle.rs`).
//!
//! Go: `cronjob/v1/`, `cronjob/unserved/` and `cronjob/deprecated/`.
//!
//! The Rust spelling of each Go construct:
//! - `+optional` / `+k8s:optional` / `+kubebuilder:validation:Optional` on a value field:
//!   `#[validate(optional)]` with a serde default; `omitempty` on a pointer, slice or map: an
//!   `Option`; `Required` on an `omitempty` field: `#[validate(required)]` on an `Option`.
//! - A field without `omitempty` but with a default is required in Go: `#[schema(default = ..)]`
//!   plus `#[validate(required)]`.
//! - `+default=...` (the Kubernetes marker) and `+kubebuilder:default=...` are both
//!   `#[schema(default = ..)]`; Go's field with both keeps the kubebuilder one, so does Rust.
//! - Go `int` is `isize` (`integer` without format), `float64` is `f64`, `[3]int` is
//!   `[isize; 3]`; `map[string][]byte` values are k8s-openapi's `ByteString`.
//! - A named Go type (`type LongerString string`, `type Hosts []string`,
//!   `type JustNestedObject NestedObject`) is a newtype with `#[serde(transparent)]`; a Go alias
//!   without markers (`type StringAlias = string`) is a Rust type alias, one with markers a
//!   newtype; an embedded struct is `#[serde(flatten)]`.
//! - `json:"-"` and unexported fields are `#[serde(skip)]`.
//! - Types with custom JSON marshaling (`Preserved`, `TotallyABool`, `URL`...`URL4`, `Time2`)
//!   are newtypes over what they serialize as, with the same type markers; their Go comments
//!   are plain comments, as controller-gen ignores them.
//! - `corev1.IPFamilyPolicyType` and `corev1.Protocol` are `String`s, as in k8s-openapi.
//! - `+kubebuilder:subresource:status` on a root without a `Status` field is
//!   `#[subresource(status = "()")]`; a root without `Spec` derives from a unit struct.
//! - `+kubebuilder:metadata` on one version applies to the whole CRD in Go; webop wants every
//!   version of a kind to declare the same CRD metadata, so all three carry it.
//!
//! Left out of the Rust and of the Go source alike:
//! - `JobTemplate batchv1beta1.JobTemplateSpec` (`spec.jobTemplate`): k8s-openapi has no
//!   batch/v1beta1.
//! - `+kubebuilder:validation:nullable` and `+kubebuilder:validation:optional` (lower case):
//!   not markers controller-gen knows, so they change nothing.
//!
//! In the Go source only: `+default=ref(DefaultRefValue)`, which has no Rust spelling and for
//! which controller-gen writes no default.

#[path = "cronjob/deprecated.rs"]
pub mod deprecated;
#[path = "cronjob/spec.rs"]
pub mod spec;
#[path = "cronjob/status.rs"]
pub mod status;
#[path = "cronjob/types.rs"]
pub mod types;
#[path = "cronjob/unserved.rs"]
pub mod unserved;

pub use spec::CronJob;

pub fn crds() -> Vec<webop::crd::CustomResourceDefinition> {
    webop::crd::assemble([
        CronJob::crd_version(),
        unserved::CronJob::crd_version(),
        deprecated::CronJob::crd_version(),
    ])
    .unwrap()
}
