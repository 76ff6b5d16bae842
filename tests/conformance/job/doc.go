// Package job is the Go source of the job case (tests/conformance/job.rs).
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta1
package job
