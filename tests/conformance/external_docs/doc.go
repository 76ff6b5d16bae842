// Package externaldocs is the Go source of the external_docs case
// (tests/conformance/external_docs.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1
package externaldocs
