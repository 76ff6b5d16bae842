// Package v1 is version v1 of the app.example.com API: the WebApp kind, as
// testdata/webapp-operator/api/src/v1 declares it in Rust. The CRD is the golden's
// (testdata/webapp-operator/config/crd/bases), so both operators serve the same schema.
//
// +kubebuilder:object:generate=true
// +groupName=app.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of the objects of this package.
	GroupVersion = schema.GroupVersion{Group: "app.example.com", Version: "v1"}

	// SchemeBuilder registers the kinds of this package with a scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the kinds of this package to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
