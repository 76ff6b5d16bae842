package k8stypes

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkerSpec runs pods on tainted nodes.
type WorkerSpec struct {
	Selector metav1.LabelSelector `json:"selector"`

	// tolerations of the worker pods.
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`

	// taints the workers put on their nodes.
	// +kubebuilder:validation:MaxItems=8
	Taints []corev1.Taint `json:"taints,omitempty"`

	// resources of each worker.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`

	// env of the worker container.
	// +listType=map
	// +listMapKey=name
	Env []corev1.EnvVar `json:"env,omitempty"`

	ServiceAccount *corev1.LocalObjectReference `json:"serviceAccount,omitempty"`

	// ports the workers listen on.
	// +listType=map
	// +listMapKey=port
	// +listMapKey=protocol
	Ports []corev1.ServicePort `json:"ports,omitempty"`

	// secretRef holds the workers' token.
	SecretRef corev1.SecretKeySelector `json:"secretRef"`

	// strategy replaces workers.
	Strategy *appsv1.DeploymentStrategy `json:"strategy,omitempty"`
}

// WorkerStatus is what the workers report.
type WorkerStatus struct {
	// conditions of the workers.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// active pods.
	Active []corev1.ObjectReference `json:"active,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Worker is the Schema for the workers API
type Worker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WorkerSpec   `json:"spec,omitempty"`
	Status WorkerStatus `json:"status,omitempty"`
}
