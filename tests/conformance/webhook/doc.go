// Package webhook is the Go source of the webhook case (tests/conformance/webhook/webhook.rs):
// the same +kubebuilder:webhook markers, each spelled as controller-gen reads it.
package webhook
