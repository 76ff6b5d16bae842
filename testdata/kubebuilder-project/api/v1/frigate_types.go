package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Speed says how fast a frigate sails.
// +kubebuilder:validation:Enum=Slow;Cruise;full-ahead
type Speed string

const (
	// SpeedSlow is for harbours.
	SpeedSlow Speed = "Slow"
	SpeedCruise Speed = "Cruise"
	SpeedFull Speed = "full-ahead"
)

// CallSign is a radio name.
// +kubebuilder:validation:MinLength=3
// +kubebuilder:validation:MaxLength=12
// +kubebuilder:validation:Pattern=`^[A-Z][A-Z0-9-]*$`
type CallSign string

// Crew is who sails.
// +kubebuilder:validation:XValidation:rule="self.officers <= self.sailors",message="more officers than sailors"
type Crew struct {
	// Sailors aboard.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=500
	Sailors int32 `json:"sailors"`

	// Officers aboard.
	// +optional
	Officers int32 `json:"officers,omitempty"`

	// Names of the crew, unique.
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:MaxLength=30
	Names []string `json:"names,omitempty"`
}

// Cargo is one load.
type Cargo struct {
	// Name of the load.
	Name string `json:"name"`
	// Weight of the load.
	Weight resource.Quantity `json:"weight"`
	// Hold it goes into.
	// +kubebuilder:default=1
	Hold int64 `json:"hold,omitempty"`
}

// Rigging is shared by sails and masts.
type Rigging struct {
	// Masts of the ship.
	// +kubebuilder:validation:Minimum=0
	Masts *int32 `json:"masts,omitempty"`
}

// FrigateSpec defines the desired state of Frigate.
type FrigateSpec struct {
	Rigging `json:",inline"`

	// callSign of the frigate.
	CallSign CallSign `json:"callSign"`

	// speed at sea.
	// +kubebuilder:default=Cruise
	Speed Speed `json:"speed,omitempty"`

	// crew aboard.
	Crew *Crew `json:"crew,omitempty"`

	// cargo carried, by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Cargo []Cargo `json:"cargo,omitempty"`

	// Labels to paint on the hull.
	// +kubebuilder:validation:MaxProperties=8
	Labels map[string]string `json:"labels,omitempty"`

	// Port to sail to.
	Port intstr.IntOrString `json:"port,omitempty"`

	// Ballast is raw data.
	Ballast []byte `json:"ballast,omitempty"`

	// Resources of the onboard workers.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`

	// Launched when the ship was launched.
	// +nullable
	Launched *metav1.Time `json:"launched,omitempty"`

	// Flag is for display only.
	// TODO: make it an enum.
	// +kubebuilder:validation:Format=hostname
	// +kubebuilder:example="jolly-roger"
	Flag string `json:"flag,omitempty"`

	// Ratio of sails up.
	// +kubebuilder:validation:MultipleOf=5
	// +kubebuilder:validation:ExclusiveMaximum=true
	// +kubebuilder:validation:Maximum=100
	Ratio int32 `json:"ratio,omitempty"`

	// Notes about the voyage.
	// +k8s:immutable
	Notes *string `json:"notes,omitempty"`

	// Watch is how long a watch lasts (a Go duration).
	Watch metav1.Duration `json:"watch,omitempty"`

	// internal is not serialized.
	Internal string `json:"-"`
}

// FrigateStatus defines the observed state of Frigate.
type FrigateStatus struct {
	// conditions of the frigate.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Position on the map.
	Position *string `json:"position,omitempty"`

	// Replicas of the frigate, for scale.
	Replicas int32 `json:"replicas,omitempty"`

	// Selector for scale.
	Selector string `json:"selector,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.crew.sailors,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:resource:shortName=fg;frig,categories=fleet
// +kubebuilder:printcolumn:name="Speed",type=string,JSONPath=`.spec.speed`
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="Sign",type=string,JSONPath=`.spec.callSign`,priority=1,description="radio call sign"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40",message="name too long"

// Frigate is the Schema for the frigates API.
type Frigate struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is a standard object metadata
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec defines the desired state of Frigate
	// +required
	Spec FrigateSpec `json:"spec"`

	// status defines the observed state of Frigate
	// +optional
	Status FrigateStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// FrigateList contains a list of Frigate.
type FrigateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Frigate `json:"items"`
}
