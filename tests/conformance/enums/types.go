package enums

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +k8s:enum
type EnumType string

const (
	Value2 EnumType = "Value2"
	Value1 EnumType = "Value1"
)

// EnumSpec defines the desired state of Enum
type EnumSpec struct {
	Field EnumType `json:"field,omitempty"`
}

// +kubebuilder:object:root=true

// Enum is a test CRD that contains an enum.
type Enum struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec EnumSpec `json:"spec,omitempty"`
}
