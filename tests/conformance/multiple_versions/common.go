// Package multipleversions holds the type both versions of the multiple_versions case
// (tests/conformance/multiple_versions.rs) share.
package multipleversions

type InnerStruct struct {
	Foo string `json:"foo,omitempty"`
}

type OuterStruct struct {
	// +structType=atomic
	Struct InnerStruct `json:"struct,omitempty"`
}
