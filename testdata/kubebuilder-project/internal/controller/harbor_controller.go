package controller

// HarborReconciler reconciles a Harbor object.
type HarborReconciler struct{}

// +kubebuilder:rbac:groups=ship.example.com,resources=harbors,verbs=get;list;watch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update,namespace=fleet-system

// Reconcile watches the harbour.
func (r *HarborReconciler) Reconcile() error { return nil }
