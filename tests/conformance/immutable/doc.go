// Package immutable is the Go source of the immutable case (tests/conformance/immutable.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1
package immutable
