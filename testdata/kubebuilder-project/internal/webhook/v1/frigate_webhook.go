// Package v1 holds the webhooks of the ship/v1 kinds. Markers only: the fixture is never built.
package v1

// The defaulting webhook is ignored when it fails, and answers in 5 seconds.
// +kubebuilder:webhook:path=/mutate-ship-example-com-v1-frigate,mutating=true,failurePolicy=ignore,sideEffects=None,groups=ship.example.com,resources=frigates,verbs=create;update,versions=v1,name=mfrigate-v1.fleet.example.com,admissionReviewVersions=v1,timeoutSeconds=5,reinvocationPolicy=IfNeeded

// +kubebuilder:webhook:path=/validate-ship-example-com-v1-frigate,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,matchPolicy=Exact,groups=ship.example.com,resources=frigates,verbs=create;update;delete,versions=v1,name=vfrigate-v1.fleet.example.com,admissionReviewVersions=v1;v1beta1

// +kubebuilder:webhookconfiguration:mutating=true,name=fleet-mutating-webhook-configuration

// FrigateCustomDefaulter sets the defaults of Frigates.
type FrigateCustomDefaulter struct{}

// FrigateCustomValidator validates Frigates.
type FrigateCustomValidator struct{}
