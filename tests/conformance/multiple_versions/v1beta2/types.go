package v1beta2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multipleversions "webop.dev/conformance/multiple_versions"
)

type VersionedResourceSpec struct {
	Struct multipleversions.OuterStruct `json:"struct,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:singular=versionedresource
// +kubebuilder:storageversion
type VersionedResource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec VersionedResourceSpec `json:"spec"`
}
