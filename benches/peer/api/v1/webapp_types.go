package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebAppSpec defines the desired state of WebApp
type WebAppSpec struct {
	// image is the container image that runs the application.
	// +required
	Image string `json:"image"`

	// replicas is the number of pods to run.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	// +optional
	Replicas int32 `json:"replicas,omitempty"`

	// port is the port the container listens on and the Service exposes.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +kubebuilder:default=8080
	// +optional
	Port int32 `json:"port,omitempty"`

	// resources are the compute resources of the container. Without them it requests 10m of
	// CPU and 64Mi of memory, so that the scheduler can place it.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
}

// WebAppPhase is the lifecycle phase of a WebApp.
// +kubebuilder:validation:Enum=Pending;Running;Failed
type WebAppPhase string

const (
	WebAppPending WebAppPhase = "Pending"
	WebAppRunning WebAppPhase = "Running"
	WebAppFailed  WebAppPhase = "Failed"
)

// WebAppStatus defines the observed state of WebApp.
type WebAppStatus struct {
	// availableReplicas is the number of pods of the Deployment that are ready.
	// +optional
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`

	// phase summarises the WebApp: Pending until every replica is available, then Running;
	// Failed when the Deployment cannot make progress.
	// +optional
	Phase WebAppPhase `json:"phase,omitempty"`

	// lastUpdateTime is when the status last changed.
	// +optional
	LastUpdateTime *metav1.Time `json:"lastUpdateTime,omitempty"`

	// conditions represent the current state of the WebApp resource.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WebApp is the Schema for the webapps API
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Image",type="string",JSONPath=".spec.image"
// +kubebuilder:printcolumn:name="Replicas",type="integer",JSONPath=".spec.replicas"
// +kubebuilder:printcolumn:name="Available",type="integer",JSONPath=".status.availableReplicas"
// +kubebuilder:printcolumn:name="Phase",type="string",JSONPath=".status.phase"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type WebApp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WebAppSpec   `json:"spec"`
	Status WebAppStatus `json:"status,omitempty"`
}

// WebAppList contains a list of WebApp
// +kubebuilder:object:root=true
type WebAppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebApp `json:"items"`
}

func init() {
	SchemeBuilder.Register(&WebApp{}, &WebAppList{})
}
