// Package enums is the Go source of the enums case (tests/conformance/enums.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1
package enums
