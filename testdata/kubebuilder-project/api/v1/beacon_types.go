package v1

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/fleet/api/shared"
)

// Light is how a beacon shines: controller-gen's enum is its constants, sorted as Go writes
// them in JSON (`&` is `\u0026`, so "ebb-flow" comes before "ebb&flood").
// +k8s:enum
type Light string

const (
	LightSteady   Light = "steady"
	LightFlashing Light = "Flashing"
	LightDark     Light = "dark"
	LightEbbFlood Light = "ebb&flood"
	LightEbbFlow  Light = "ebb-flow"
	// An untyped constant is none of the enum's.
	lightUnknown = "unknown"
)

// LightColour is a constant of another type.
const LightColour string = "red"

// +kubebuilder:validation:Type=string
// +kubebuilder:validation:Pattern=`^-?[0-9]+,-?[0-9]+$`

// Position is where a beacon stands, written "lat,lon" by its MarshalJSON, so controller-gen
// writes the markers' schema and not this doc.
type Position struct {
	Lat int32 `json:"lat"`
	Lon int32 `json:"lon"`
}

// MarshalJSON writes "lat,lon".
func (p *Position) MarshalJSON() ([]byte, error) {
	return json.Marshal(fmt.Sprintf("%d,%d", p.Lat, p.Lon))
}

// Range is a distance in cables, written as text by its MarshalText: a string for
// controller-gen.
// +kubebuilder:validation:MaxLength=8
type Range struct {
	Cables int32 `json:"cables"`
}

// MarshalText writes the range in cables.
func (r Range) MarshalText() ([]byte, error) {
	return []byte(fmt.Sprintf("%dcb", r.Cables)), nil
}

// BeaconStatus reports a beacon.
type BeaconStatus struct {
	// Lit says whether it shines.
	Lit bool `json:"lit"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Beacon is a light with fields of its own at the root, and a status without omitempty,
// which controller-gen lists as required.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Light of the beacon.
	Light Light `json:"light"`
	// Position of the beacon.
	Position *Position `json:"position,omitempty"`
	// Range it is seen from.
	Range Range `json:"range,omitempty"`
	// Flag flown, of the shared package.
	Flag *shared.Flag `json:"flag,omitempty"`

	// Status of the beacon.
	Status BeaconStatus `json:"status"`
}

// +kubebuilder:object:root=true

// BeaconList contains a list of Beacon.
type BeaconList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beacon `json:"items"`
}

// LighthouseSpec defines the desired state of Lighthouse.
type LighthouseSpec struct {
	// Height in metres.
	Height int32 `json:"height"`
	// Flag flown, of the shared package too.
	Flag shared.Flag `json:"flag"`
}

// LighthouseStatus defines the observed state of Lighthouse.
type LighthouseStatus struct {
	// Keeper on duty.
	Keeper string `json:"keeper,omitempty"`
}

// +kubebuilder:object:root=true

// Lighthouse has a spec and a status that are both required: `omitzero` is no `omitempty`
// for controller-gen.
type Lighthouse struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LighthouseSpec   `json:"spec"`
	Status LighthouseStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// LighthouseList contains a list of Lighthouse.
type LighthouseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Lighthouse `json:"items"`
}

// BuoySpec defines the desired state of Buoy.
type BuoySpec struct {
	// Chain length in metres.
	Chain int32 `json:"chain,omitempty"`
}

// +kubebuilder:object:root=true

// Buoy embeds no ObjectMeta: controller-gen writes no CRD of it.
type Buoy struct {
	metav1.TypeMeta `json:",inline"`

	Spec BuoySpec `json:"spec,omitempty"`
}
