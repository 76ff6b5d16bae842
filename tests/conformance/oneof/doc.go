// Package oneof is the Go source of the oneof case (tests/conformance/oneof.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta1
package oneof
