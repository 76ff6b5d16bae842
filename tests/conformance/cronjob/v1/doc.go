// Package v1 is version v1 of the cronjob case (tests/conformance/cronjob/spec.rs, status.rs and
// types.rs), the storage version.
// +groupName=testdata.kubebuilder.io
// +versionName=v1
package v1
