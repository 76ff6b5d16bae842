// Package k8stypes is the Go source of the k8s_types case (tests/conformance/k8s_types.rs).
// +groupName=batch.example.com
// +versionName=v1
package k8stypes
