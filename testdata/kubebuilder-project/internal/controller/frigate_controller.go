// Package controller holds the reconcilers.
package controller

// FrigateReconciler reconciles a Frigate object.
type FrigateReconciler struct{}

// +kubebuilder:rbac:groups=ship.example.com,resources=frigates,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=ship.example.com,resources=frigates/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=ship.example.com,resources=frigates/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete

// Reconcile moves the cluster towards the frigate's spec.
func (r *FrigateReconciler) Reconcile(name string) error {
	if name == "" {
		return nil
	}
	return nil
}
