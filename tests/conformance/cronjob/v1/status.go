package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CronJobStatus defines the observed state of CronJob
type CronJobStatus struct {
	// A list of pointers to currently running jobs.
	// +optional
	Active []corev1.ObjectReference `json:"active,omitempty"`

	// Information when was the last time the job was successfully scheduled.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`

	// Information when was the last time the job was successfully scheduled.
	// +optional
	LastScheduleTime2 *Time2 `json:"lastScheduleTime2,omitempty"`

	// Information about the last time the job was successfully scheduled,
	// with microsecond precision.
	// +optional
	LastScheduleMicroTime *metav1.MicroTime `json:"lastScheduleMicroTime,omitempty"`

	// LastActiveLogURL specifies the logging url for the last started job
	// +optional
	LastActiveLogURL *URL `json:"lastActiveLogURL,omitempty"`

	// LastActiveLogURL2 specifies the logging url for the last started job
	// +optional
	LastActiveLogURL2 *URL2 `json:"lastActiveLogURL2,omitempty"`

	// LastActiveLogURL3 specifies the logging url for the last started job
	// +optional
	LastActiveLogURL3 *URL3 `json:"lastActiveLogURL3,omitempty"`

	// LastActiveLogURL4 specifies the logging url for the last started job
	// +optional
	LastActiveLogURL4 *URL4 `json:"lastActiveLogURL4,omitempty"`

	Runtime *Duration `json:"duration,omitempty"`
}
