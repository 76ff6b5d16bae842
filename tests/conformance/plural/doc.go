// Package plural is the Go source of the plural case (tests/conformance/plural.rs).
// +groupName=plural.example.com
// +versionName=v1
package plural
