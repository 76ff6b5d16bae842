// Package foo is the Go source of the gen_foo case (tests/conformance/gen_foo.rs): no
// +versionName, so the version is the package name.
// +groupName=bar.example.com
package foo
