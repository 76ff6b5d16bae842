package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Berth is a place at the quay.
type Berth struct {
	// Number of the berth.
	Number int `json:"number"`
	// Occupant is the frigate moored there.
	Occupant *CallSign `json:"occupant,omitempty"`
}

// HarborSpec defines the desired state of Harbor.
type HarborSpec struct {
	// Berths of the harbour.
	// +kubebuilder:validation:MinItems=1
	Berths []Berth `json:"berths"`

	// Depth in metres, by quay.
	Depth map[string]int64 `json:"depth,omitempty"`

	/* Tide is written
	   in a block comment. */
	Tide string `json:"tide,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,path=harbors,singular=harbor

// Harbor is the Schema for the harbors API.
type Harbor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec HarborSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// HarborList contains a list of Harbor.
type HarborList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Harbor `json:"items"`
}
