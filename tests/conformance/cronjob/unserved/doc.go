// Package unserved is version v1beta1 of the cronjob case, not served
// (tests/conformance/cronjob/unserved.rs); the job case uses its spec.
// +groupName=testdata.kubebuilder.io
// +versionName=v1beta1
package unserved
