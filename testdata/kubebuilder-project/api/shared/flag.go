// Package shared holds types the API packages share (controller-gen reads them where an API
// type names them).
package shared

// Flag is a ship's flag.
type Flag struct {
	// Country of registry.
	// +kubebuilder:validation:MinLength=2
	Country string `json:"country"`
	// Colours of the flag, hoist first.
	Colours []Colour `json:"colours,omitempty"`
}

// Colour of a flag.
// +kubebuilder:validation:Pattern=`^[a-z]+$`
type Colour string
