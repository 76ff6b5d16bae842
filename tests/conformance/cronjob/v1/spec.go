package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// CronJobSpec defines the desired state of CronJob
// +kubebuilder:validation:XValidation:rule="has(oldSelf.forbiddenInt) || !has(self.forbiddenInt)",message="forbiddenInt is not allowed",fieldPath=".forbiddenInt",reason="FieldValueForbidden"
type CronJobSpec struct {
	// The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
	Schedule string `json:"schedule"`

	// Optional deadline in seconds for starting the job if it misses scheduled
	// time for any reason.  Missed jobs executions will be counted as failed ones.
	// +optional
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`

	// Specifies how to treat concurrent executions of a Job.
	// Valid values are:
	// - "Allow" (default): allows CronJobs to run concurrently;
	// - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
	// - "Replace": cancels currently running job and replaces it with a new one
	// +optional
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`

	// Specifies how to treat concurrent executions of a Job.
	// Valid values are:
	// - "Allow" (default): allows CronJobs to run concurrently;
	// - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
	// - "Replace": cancels currently running job and replaces it with a new one
	// +optional
	K8sConcurrencyPolicy K8sConcurrencyPolicy `json:"k8sConcurrencyPolicy,omitempty"`

	// This flag tells the controller to suspend subsequent executions, it does
	// not apply to already started executions.  Defaults to false.
	// +optional
	Suspend *bool `json:"suspend,omitempty"`

	// This tests that non-serialized fields aren't included in the schema.
	InternalData string `json:"-"`

	// This flag is like suspend, but for when you really mean it.
	// It helps test the +kubebuilder:validation:Type marker.
	// +optional
	NoReallySuspend *TotallyABool `json:"noReallySuspend,omitempty"`

	// This tests byte slice schema generation.
	BinaryName []byte `json:"binaryName"`

	// This tests that nullable works correctly
	// +nullable
	CanBeNull string `json:"canBeNull"`

	// The number of successful finished jobs to retain.
	// This is a pointer to distinguish between explicit zero and not specified.
	// +optional
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`

	// The number of failed finished jobs to retain.
	// This is a pointer to distinguish between explicit zero and not specified.
	// +optional
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`

	// This tests byte slices are allowed as map values.
	ByteSliceData map[string][]byte `json:"byteSliceData,omitempty"`

	// This tests string slices are allowed as map values.
	StringSliceData map[string][]string `json:"stringSliceData,omitempty"`

	// This tests pointers are allowed as map values.
	PtrData map[string]*string `json:"ptrData,omitempty"`

	// This tests that markers that are allowed on both fields and types are applied to fields
	// +kubebuilder:validation:MinLength=4
	TwoOfAKindPart0 string `json:"twoOfAKindPart0"`

	// This tests that markers that are allowed on both fields and types are applied to types
	TwoOfAKindPart1 LongerString `json:"twoOfAKindPart1"`

	// This tests that primitive defaulting can be performed.
	// +kubebuilder:default=forty-two
	// +kubebuilder:example=forty-two
	// +kubebuilder:title=DefaultedString
	DefaultedString string `json:"defaultedString"`

	// This tests that slice defaulting can be performed.
	// +kubebuilder:default={a,b}
	// +kubebuilder:example={a,b}
	// +kubebuilder:title=DefaultedSlice
	DefaultedSlice []string `json:"defaultedSlice"`

	// This tests that slice and object defaulting can be performed.
	// +kubebuilder:default={{nested: {foo: "baz", bar: true}},{nested: {foo: "qux", bar: false}}}
	// +kubebuilder:example={{nested: {foo: "baz", bar: true}},{nested: {foo: "qux", bar: false}}}
	// +kubebuilder:title="124"
	DefaultedObject []RootObject `json:"defaultedObject"`

	// This tests that empty slice defaulting can be performed.
	// +kubebuilder:default={}
	// +kubebuilder:title="{}"
	DefaultedEmptySlice []string `json:"defaultedEmptySlice"`

	// This tests that an empty object defaulting can be performed on a map.
	// +kubebuilder:default={}
	DefaultedEmptyMap map[string]string `json:"defaultedEmptyMap"`

	// This tests that an empty object defaulting can be performed on an object.
	// +kubebuilder:default={}
	DefaultedEmptyObject EmpiableObject `json:"defaultedEmptyObject"`

	// This tests that kubebuilder defaulting takes precedence.
	// +kubebuilder:default="kubebuilder-default"
	// +default="kubernetes-default"
	DoubleDefaultedString string `json:"doubleDefaultedString"`

	// This tests that primitive defaulting can be performed.
	// +default="forty-two"
	KubernetesDefaultedString string `json:"kubernetesDefaultedString"`

	// This tests that slice defaulting can be performed.
	// +default=["a","b"]
	KubernetesDefaultedSlice []string `json:"kubernetesDefaultedSlice"`

	// This tests that slice and object defaulting can be performed.
	// +default=[{"nested": {"foo": "baz", "bar": true}},{"nested": {"foo": "qux", "bar": false}}]
	KubernetesDefaultedObject []RootObject `json:"kubernetesDefaultedObject"`

	// This tests that empty slice defaulting can be performed.
	// +default=[]
	KubernetesDefaultedEmptySlice []string `json:"kubernetesDefaultedEmptySlice"`

	// This tests that an empty object defaulting can be performed on a map.
	// +default={}
	KubernetesDefaultedEmptyMap map[string]string `json:"kubernetesDefaultedEmptyMap"`

	// This tests that an empty object defaulting can be performed on an object.
	// +default={}
	KubernetesDefaultedEmptyObject EmpiableObject `json:"kubernetesDefaultedEmptyObject"`

	// This tests that use of +default=ref(...) doesn't break generation
	// +default=ref(DefaultRefValue)
	KubernetesDefaultedRef string `json:"kubernetesDefaultedRef,omitempty"`

	// This tests that pattern validator is properly applied.
	// +kubebuilder:validation:Pattern=`^$|^((https):\/\/?)[^\s()<>]+(?:\([\w\d]+\)|([^[:punct:]\s]|\/?))$`
	PatternObject string `json:"patternObject"`

	// +kubebuilder:validation:EmbeddedResource
	EmbeddedResource runtime.RawExtension `json:"embeddedResource"`

	// +kubebuilder:pruning:PreserveUnknownFields
	UnprunedJSON NestedObject `json:"unprunedJSON"`

	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:EmbeddedResource
	UnprunedEmbeddedResource runtime.RawExtension `json:"unprunedEmbeddedResource"`

	// This tests that a type-level pruning marker works.
	UnprunedFromType Preserved `json:"unprunedFomType"`

	// This tests that a type-level pruning marker combined with a field-level pruning marker works.
	// +kubebuilder:pruning:PreserveUnknownFields
	UnprunedFromTypeAndField Preserved `json:"unprunedFomTypeAndField"`

	// This tests that associative lists work.
	// +listType=map
	// +listMapKey=name
	// +listMapKey=secondary
	AssociativeList []AssociativeType `json:"associativeList"`

	// This tests that associative lists work via a nested type.
	NestedAssociativeList NestedAssociativeList `json:"nestedassociativeList"`

	// A map that allows different actors to manage different fields
	// +mapType=granular
	MapOfInfo map[string][]byte `json:"mapOfInfo"`

	// A map that allows different actors to manage different fields via a nested type.
	NestedMapOfInfo NestedMapOfInfo `json:"nestedMapOfInfo"`

	// A struct that can only be entirely replaced
	// +structType=atomic
	StructWithSeveralFields NestedObject `json:"structWithSeveralFields"`

	// A struct that can only be entirely replaced via a nested type.
	NestedStructWithSeveralFields NestedStructWithSeveralFields `json:"nestedStructWithSeveralFields"`

	// A struct that can only be entirely replaced via a nested type and
	// field markers.
	// +structType=atomic
	NestedStructWithSeveralFieldsDoubleMarked NestedStructWithSeveralFields `json:"nestedStructWithSeveralFieldsDoubleMarked"`

	// This tests that type references are properly flattened
	JustNestedObject *JustNestedObject `json:"justNestedObject,omitempty"`

	// This tests explicitly optional kubebuilder fields
	// +kubebuilder:validation:Optional
	ExplicitlyOptionalKubebuilder string `json:"explicitlyOptionalKubebuilder"`

	// This tests explicitly optional kubernetes fields
	// +optional
	ExplicitlyOptionalKubernetes string `json:"explicitlyOptionalKubernetes"`

	// This tests explicitly optional k8s fields
	// +k8s:optional
	ExplicitlyOptionalK8s string `json:"explicitlyOptionalK8s"`

	// This tests explicitly required kubebuilder fields
	// +kubebuilder:validation:Required
	ExplicitlyRequiredKubebuilder string `json:"explicitlyRequiredKubebuilder,omitempty"`

	// This tests explicitly required kubernetes fields
	// +required
	ExplicitlyRequiredKubernetes string `json:"explicitlyRequiredKubernetes,omitempty"`

	// This tests explicitly required k8s fields
	// +k8s:required
	ExplicitlyRequiredK8s string `json:"explicitlyRequiredK8s,omitempty"`

	// This tests that min/max properties work
	MinMaxProperties *MinMaxObject `json:"minMaxProperties,omitempty"`

	// This tests that the schemaless marker works
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=string
	Schemaless []byte `json:"schemaless,omitempty"`

	// This tests that an IntOrString can also have string validation.
	// This can be useful if you want to limit the string to a percentage or integer.
	// The XIntOrString marker is a requirement for having a pattern on this type.
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:MaxLength=11
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
	IntOrStringWithAPattern *intstr.IntOrString `json:"intOrStringWithAPattern,omitempty"`

	// This tests that an IntOrString can have enum validation.
	// The XIntOrString marker is required for applying enum to IntOrString.
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:Enum=1;2;"foo";"bar"
	IntOrStringWithEnum *intstr.IntOrString `json:"intOrStringWithEnum,omitempty"`

	// Checks that nested maps work
	NestedMap map[string]map[string]string `json:"nestedMap,omitempty"`

	// Checks that multiply-nested maps work
	NestedNestedMap map[string]map[string]map[string]string `json:"nestedNestedMap,omitempty"`

	// Checks that maps containing types that contain maps work
	ContainsNestedMapMap map[string]ContainsNestedMap `json:"nestedMapInStruct,omitempty"`

	// Maps of arrays of things-that-aren’t-strings are permitted
	MapOfArraysOfFloats map[string][]bool `json:"mapOfArraysOfFloats,omitempty"`

	// +kubebuilder:validation:Minimum=-0.5
	// +kubebuilder:validation:Maximum=1.5
	// +kubebuilder:validation:MultipleOf=0.5
	FloatWithValidations float64 `json:"floatWithValidations"`

	// +kubebuilder:validation:Minimum=-0.5
	// +kubebuilder:validation:Maximum=1.5
	// +kubebuilder:validation:MultipleOf=0.5
	Float64WithValidations float64 `json:"float64WithValidations"`

	// +kubebuilder:validation:Minimum=-2
	// +kubebuilder:validation:Maximum=2
	// +kubebuilder:validation:MultipleOf=2
	IntWithValidations int `json:"intWithValidations"`

	// +kubebuilder:validation:Minimum=-2
	// +kubebuilder:validation:Maximum=2
	// +kubebuilder:validation:MultipleOf=2
	Int32WithValidations int32 `json:"int32WithValidations"`

	// This tests that unexported fields are skipped in the schema generation
	unexportedField string `json:"-"`

	// This tests that both unexported and exported inline fields are not skipped in the schema generation
	unexportedStruct `json:",inline"`
	ExportedStruct   `json:",inline"`

	// Test of the expression-based validation rule marker, with optional message.
	// +kubebuilder:validation:XValidation:rule="self.size() % 2 == 0",message="must have even length"
	// +kubebuilder:validation:XValidation:rule="true"
	StringWithEvenLength string `json:"stringWithEvenLength,omitempty"`

	// Test of the expression-based validation with messageExpression marker.
	// Due to a bug in the cost calculation we can not include the lenght in the message expression:
	// https://github.com/kubernetes/kubernetes/issues/124234
	//
	// +kubebuilder:validation:XValidation:rule="self.size() % 2 == 0",messageExpression="self + ' has odd length, must be even'"
	StringWithEvenLengthAndMessageExpression string `json:"stringWithEvenLengthAndMessageExpression,omitempty"`

	// Test of the expression-based validation on both field and type.
	// +kubebuilder:validation:XValidation:rule="self.startsWith('good-')",message="must have good prefix"
	StringWithEvenLengthAndGoodPrefix StringEvenType `json:"stringWithEvenLengthAndGoodPrefix,omitempty"`

	// Test that we can add a forbidden field using XValidation Reason and FieldPath.
	// The validation is applied to the spec struct itself and not the field.
	ForbiddenInt int `json:"forbiddenInt,omitempty"`

	// Checks that fixed-length arrays work
	Array [3]int `json:"array,omitempty"`

	// Checks that arrays work when the type contains a composite literal
	ArrayUsingCompositeLiteral [len([3]struct{}{})]string `json:"arrayUsingCompositeLiteral,omitempty"`

	// This tests string slice item validation.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	// +kubebuilder:validation:items:Pattern=^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
	// +listType=set
	Hosts []string `json:"hosts,omitempty"`

	// This tests slice item validation with enum
	// +kubebuilder:validation:items:Enum=0;1;3
	EnumSlice []int `json:"enumSlice,omitempty"`

	HostsAlias Hosts `json:"hostsAlias,omitempty"`

	// This tests that alias imported from a package is handled correctly. The
	// corev1.IPFamilyPolicyType is just reused since it's available from
	// imported package. We can create our own in a separate package if needed.
	AliasFromPackage corev1.IPFamilyPolicyType `json:"aliasFromPackage,omitempty"`

	// This tests that string alias is handled correctly.
	StringAlias    StringAlias  `json:"stringAlias,omitempty"`
	StringAliasPtr *StringAlias `json:"stringAliasPtr,omitempty"`

	// This tests that validation on a string alias type is handled correctly.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	StringAliasAddedValidation StringAlias `json:"stringAliasAddedValidation,omitempty"`

	// This tests that validation on a string alias type itself is handled correctly.
	StringAliasAlreadyValidated StringAliasWithValidation `json:"stringAliasAlreadyValidated,omitempty"`

	// These test that title works on both a type and field, with field taking precedence.
	// +kubebuilder:title="title on field"
	StringAliasWithAddedTitle StringAliasWithTitle `json:"stringAliasWithAddedTitle,omitempty"`
	StringAliasWithTitle      StringAliasWithTitle `json:"stringAliasWithTitle,omitempty"`

	// This tests string slice validation.
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=2
	StringPair []string `json:"stringPair"`

	// This tests string alias slice item validation.
	// +kubebuilder:validation:MinItems=3
	LongerStringArray []LongerString `json:"longerStringArray,omitempty"`

	// This tests that a slice of IntOrString can also have string validation.
	// This can be useful if you want to limit the string to a percentage or integer.
	// The XIntOrString marker is a requirement for having a pattern on this type.
	// +kubebuilder:validation:items:XIntOrString
	// +kubebuilder:validation:items:MaxLength=10
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern="^((100|[0-9]{1,2})%|[0-9]+)$"
	IntOrStringArrayWithAPattern []*intstr.IntOrString `json:"intOrStringArrayWithAPattern,omitempty"`

	// This tests that we can embed protocol correctly (without ending up with allOf).
	// Context: https://github.com/kubernetes-sigs/controller-tools/issues/1027
	// Defaults to "TCP".
	// +optional
	// +default="TCP"
	Protocol corev1.Protocol `json:"protocol,omitempty"`

	// This tests that selectable field.
	SelectableFieldString string `json:"selectableFieldString,omitempty"`

	// This tests that embedded struct, which is an alias type, is handled correctly.
	InlineAlias `json:",inline"`

	// Test that we can add a field that can only be set to a non-default value on updates using XValidation OptionalOldSelf.
	// +kubebuilder:validation:XValidation:rule="oldSelf.hasValue() || self == 0",message="must be set to 0 on creation. can be set to any value on an update.",optionalOldSelf=true
	OnlyAllowSettingOnUpdate int32 `json:"onlyAllowSettingOnUpdate,omitempty"`

	// This tests that unmarkered types are handled correctly.
	// When markers are applied at the field level instead of the type level.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	LocallyBoundedInteger UnmarkeredInteger `json:"locallyBoundedInteger,omitempty"`

	// This tests that unmarkered types are handled correctly.
	// When markers are applied at the field level instead of the type level.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=10
	LocallyBoundedString UnmarkeredString `json:"locallyBoundedString,omitempty"`

	// This tests that field-level overrides are handled correctly
	// for local type aliases.
	// +kubebuilder:validation:MinLength=10
	// +kubebuilder:validation:MaxLength=10
	FieldLevelAliasOverride StringAliasWithValidation `json:"fieldLevelAliasOverride,omitempty"`

	// This tests that field-level overrides are handled correctly
	// for local type declarations.
	// +kubebuilder:validation:MinLength=10
	// +kubebuilder:validation:MaxLength=10
	FieldLevelLocalDeclarationOverride LongerString `json:"fieldLevelLocalDeclarationOverride,omitempty"`
}
