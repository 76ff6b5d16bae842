package webapp

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebAppSpec defines the desired state of WebApp
type WebAppSpec struct {
	// image is the container image that runs the application.
	// +kubebuilder:validation:Required
	Image string `json:"image"`

	// replicas is the number of pods to run.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	Replicas int32 `json:"replicas,omitempty"`

	// port is the port the container listens on and the Service exposes.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +kubebuilder:default=8080
	Port int32 `json:"port,omitempty"`

	// resources are the compute resources of the container. Without them it requests 10m of
	// CPU and 64Mi of memory, so that the scheduler can place it.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
}

// WebAppPhase is the lifecycle phase of a WebApp.
// +kubebuilder:validation:Enum=Pending;Running;Failed
type WebAppPhase string

// WebAppStatus defines the observed state of WebApp.
type WebAppStatus struct {
	// availableReplicas is the number of pods of the Deployment that are ready.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`

	// phase summarises the WebApp: Pending until every replica is available, then Running;
	// Failed when the Deployment cannot make progress.
	Phase WebAppPhase `json:"phase,omitempty"`

	// lastUpdateTime is when the status last changed.
	LastUpdateTime *metav1.Time `json:"lastUpdateTime,omitempty"`

	// conditions represent the current state of the WebApp resource.
	// Each condition has a unique type and reflects the status of a specific aspect of the resource.
	//
	// Standard condition types include:
	// - "Available": the resource is fully functional
	// - "Progressing": the resource is being created or updated
	// - "Degraded": the resource failed to reach or maintain its desired state
	//
	// The status of each condition is one of True, False, or Unknown.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=`.spec.image`
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
// +kubebuilder:printcolumn:name="Available",type=integer,JSONPath=`.status.availableReplicas`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 59 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="metadata.name must be at most 59 lowercase letters, digits and '-', starting with a letter: the Service is named <name>-svc"

// WebApp is the Schema for the webapps API
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WebAppSpec   `json:"spec,omitempty"`
	Status WebAppStatus `json:"status,omitempty"`
}
