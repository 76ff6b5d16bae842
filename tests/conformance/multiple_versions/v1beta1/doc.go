// Package v1beta1 is version v1beta1 of the multiple_versions case
// (tests/conformance/multiple_versions/v1beta1.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta1
package v1beta1
