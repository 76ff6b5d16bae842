package job

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"webop.dev/conformance/cronjob/unserved"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:singular=job

// JobSpec is the spec for the jobs API.
type JobSpec struct {
	// FriendlyName is the friendly name for the job.
	//
	// +kubebuilder:validation:MinLength=5
	FriendlyName string `json:"friendlyName"`

	// Count is the number of times a job may be executed.
	//
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	Count int32 `json:"count"`

	// CronJob is the spec for the related CrongJob.
	CronnJob unserved.CronJobSpec `json:"crongJob"`
}

// Job is the Schema for the jobs API
type Job struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec JobSpec `json:"spec"`
}
