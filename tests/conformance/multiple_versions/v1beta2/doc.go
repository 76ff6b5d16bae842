// Package v1beta2 is version v1beta2 of the multiple_versions case
// (tests/conformance/multiple_versions/v1beta2.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta2
package v1beta2
