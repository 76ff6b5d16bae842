// Package zoo is the Go source of the gen_zoo case (tests/conformance/gen_zoo.rs): no
// +versionName, so the version is the package name.
// +groupName=bar.example.com
package zoo
