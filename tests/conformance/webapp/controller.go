package webapp

// The #[rbac] attributes of the golden operator's reconciler, as controller-gen markers.

// +kubebuilder:rbac:groups=app.example.com,resources=webapps,verbs=list;watch
// +kubebuilder:rbac:groups=app.example.com,resources=webapps/status,verbs=patch
// +kubebuilder:rbac:groups=app.example.com,resources=webapps/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=list;watch;create;patch
// +kubebuilder:rbac:groups="",resources=services,verbs=list;watch;create;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile stands for the reconciler the markers above describe, as in kubebuilder's layout.
func Reconcile() {}
