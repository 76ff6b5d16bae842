// Package rbac is the Go source of the rbac case (tests/conformance/rbac/controller.rs): the
// same +kubebuilder:rbac markers in the same order, with the comments that sit among them.
package rbac
