// Package deprecated is version v1beta2 of the cronjob case, deprecated
// (tests/conformance/cronjob/deprecated.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta2
package deprecated
