package v1

import (
	"encoding/json"
	"net/url"
	"strconv"
	"time"
)

// InlineAlias is embedded in the spec through an alias.
type InlineAlias = EmbeddedStruct

// EmbeddedStruct is for testing that embedded struct is handled correctly when it is used through an alias type.
type EmbeddedStruct struct {
	// FromEmbedded is a field from the embedded struct that was used through an alias type.
	FromEmbedded string `json:"fromEmbedded,omitempty"`
}

type StringAlias = string

// +kubebuilder:title="title on type"
type StringAliasWithTitle = string

// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=255
type StringAliasWithValidation = string

type ContainsNestedMap struct {
	InnerMap map[string]string `json:"innerMap,omitempty"`
}

// Preserved keeps every field of its JSON object; controller-gen takes its schema from the
// markers alone.
// +kubebuilder:validation:Type=object
// +kubebuilder:pruning:PreserveUnknownFields
type Preserved struct {
	ConcreteField string         `json:"concreteField"`
	Rest          map[string]any `json:"-"`
}

func (p *Preserved) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &p.Rest); err != nil {
		return err
	}
	concrete, _ := p.Rest["concreteField"].(string)
	p.ConcreteField = concrete
	delete(p.Rest, "concreteField")
	return nil
}

func (p *Preserved) MarshalJSON() ([]byte, error) {
	all := map[string]any{"concreteField": p.ConcreteField}
	for key, value := range p.Rest {
		all[key] = value
	}
	return json.Marshal(all)
}

type NestedObject struct {
	Foo string `json:"foo"`
	Bar bool   `json:"bar"`
}

// +structType=atomic
type NestedStructWithSeveralFields NestedObject

type JustNestedObject NestedObject

// +kubebuilder:validation:MinProperties=1
// +kubebuilder:validation:MaxProperties=2
type MinMaxObject struct {
	Foo string `json:"foo,omitempty"`
	Bar string `json:"bar,omitempty"`
	Baz string `json:"baz,omitempty"`
}

type EmpiableObject struct {
	// +kubebuilder:default=forty-two
	Foo string `json:"foo,omitempty"`
	Bar string `json:"bar,omitempty"`
}

type unexportedStruct struct {
	// This tests that exported fields are not skipped in the schema generation
	Foo string `json:"foo"`

	// This tests that unexported fields are skipped in the schema generation
	bar string `json:"-"`
}

type ExportedStruct struct {
	// This tests that exported fields are not skipped in the schema generation
	Baz string `json:"baz"`

	// This tests that unexported fields are skipped in the schema generation
	qux string `json:"-"`
}

type RootObject struct {
	Nested NestedObject `json:"nested"`
}

type AssociativeType struct {
	Name      string `json:"name"`
	Secondary int    `json:"secondary"`
	Foo       string `json:"foo"`
}

// +listType=map
// +listMapKey=name
// +listMapKey=secondary
type NestedAssociativeList []AssociativeType

// +mapType=granular
type NestedMapOfInfo map[string][]byte

// This tests that markers that are allowed on both fields and types are applied to types
// +kubebuilder:validation:MinLength=4
type LongerString string

// TotallyABool is a bool that serializes as a string.
// +kubebuilder:validation:Type=string
type TotallyABool bool

func (t TotallyABool) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatBool(bool(t)))
}

func (t *TotallyABool) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err != nil {
		return err
	}
	value, err := strconv.ParseBool(text)
	*t = TotallyABool(value)
	return err
}

// This tests string slice item validation.
// +kubebuilder:validation:MinItems=1
// +kubebuilder:validation:items:MinLength=1
// +kubebuilder:validation:items:MaxLength=255
// +kubebuilder:validation:items:Pattern=^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
// +listType=set
type Hosts []string

// This tests that unmarkered types are handled correctly.
// When markers are applied at the field level instead of the type level.
type UnmarkeredInteger int32

// This tests that unmarkered types are handled correctly.
// When markers are applied at the field level instead of the type level.
type UnmarkeredString string

// URL is written as a string by its MarshalJSON.
// +kubebuilder:validation:Type=string
type URL struct {
	url.URL
}

func (u URL) MarshalJSON() ([]byte, error) {
	return json.Marshal(u.String())
}

// URL2 is written as a string by its MarshalJSON.
// +kubebuilder:validation:Type=string
type URL2 url.URL

func (u URL2) MarshalJSON() ([]byte, error) {
	plain := url.URL(u)
	return json.Marshal(plain.String())
}

// URL3 is a text marshaler, so a string.
type URL3 struct {
	url.URL
}

func (u URL3) MarshalText() ([]byte, error) {
	return []byte(u.String()), nil
}

// URL4 is a text marshaler, so a string.
type URL4 url.URL

func (u URL4) MarshalText() ([]byte, error) {
	plain := url.URL(u)
	return []byte(plain.String()), nil
}

// Time2 is written as Unix milliseconds by its MarshalJSON.
// +kubebuilder:validation:Type=integer
// +kubebuilder:validation:Format=int64
type Time2 time.Time

func (t Time2) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UnixMilli())
}

// Duration has a custom Marshaler but no markers.
// We want the CRD generation to infer type information
// from the go types and ignore the presense of the Marshaler.
type Duration struct {
	Value time.Duration `json:"value"`
}

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.Value.String())
}

// ConcurrencyPolicy describes how the job will be handled.
// Only one of the following concurrent policies may be specified.
// If none of the following policies is specified, the default one
// is AllowConcurrent.
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

const (
	// AllowConcurrent allows CronJobs to run concurrently.
	AllowConcurrent ConcurrencyPolicy = "Allow"

	// ForbidConcurrent forbids concurrent runs, skipping next run if previous
	// hasn't finished yet.
	ForbidConcurrent ConcurrencyPolicy = "Forbid"

	// ReplaceConcurrent cancels currently running job and replaces it with a new one.
	ReplaceConcurrent ConcurrencyPolicy = "Replace"
)

// +k8s:enum
type K8sConcurrencyPolicy string

const (
	K8sReplaceConcurrent K8sConcurrencyPolicy = "Replace"
	K8sAllowConcurrent   K8sConcurrencyPolicy = "Allow"
	K8sForbidConcurrent  K8sConcurrencyPolicy = "Forbid"
)

// StringEvenType is a type that includes an expression-based validation.
// +kubebuilder:validation:XValidation:rule="self.size() % 2 == 0",message="must have even length"
type StringEvenType string
