package rbac

// +kubebuilder:rbac:groups=batch.io,resources=cronjobs,verbs=get;watch;create
// +kubebuilder:rbac:groups=batch.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=art,resources=jobs,verbs=get
// +kubebuilder:rbac:groups=wave,resources=jobs,verbs=get,namespace=zoo
// +kubebuilder:rbac:groups=batch;batch;batch,resources=jobs/status,verbs=watch
// +kubebuilder:rbac:groups=batch;cron,resources=jobs/status,verbs=create;get
// +kubebuilder:rbac:groups=art,resources=jobs,verbs=get,namespace=zoo
// +kubebuilder:rbac:groups=cron;batch,resources=jobs/status,verbs=get;create
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=watch;watch
// +kubebuilder:rbac:groups=art,resources=jobs,verbs=get,namespace=park
// +kubebuilder:rbac:groups=batch.io,resources=cronjobs,resourceNames=foo;bar;baz,verbs=get;watch
// +kubebuilder:rbac:groups=deduplicate-verbs,resources=some,verbs=get;list
// +kubebuilder:rbac:groups=deduplicate-verbs,resources=some,verbs=get
// +kubebuilder:rbac:groups=deduplicate-verbs,resources=some,verbs=list
// +kubebuilder:rbac:groups=deduplicate-resources,resources=one,verbs=create
// +kubebuilder:rbac:groups=deduplicate-resources,resources=two,verbs=create
// +kubebuilder:rbac:groups=deduplicate-resources,resources=three,verbs=create
// +kubebuilder:rbac:groups=deduplicate-groups1,resources=foo,verbs=patch
// +kubebuilder:rbac:groups=deduplicate-groups2,resources=foo,verbs=patch
// +kubebuilder:rbac:groups=deduplicate-groups3,resources=foo,verbs=patch
// +kubebuilder:rbac:groups=deduplicate-all,resources=foo;bar,verbs=get;list
// +kubebuilder:rbac:groups=deduplicate-all,resources=foo,verbs=get
// +kubebuilder:rbac:groups=deduplicate-all,resources=bar,verbs=list
// +kubebuilder:rbac:groups=deduplicate-groups4,resources=xyz,verbs=get;update;patch
// +kubebuilder:rbac:groups=deduplicate-groups4,resources=xyz,verbs=*
// +kubebuilder:rbac:groups=deduplicate-all-group,resources=foo;bar,verbs=get;list
// +kubebuilder:rbac:groups=not-deduplicate-resources,resources=some,verbs=get
// +kubebuilder:rbac:groups=not-deduplicate-resources,resources=another,verbs=list
// +kubebuilder:rbac:groups=not-deduplicate-groups1,resources=some,verbs=get
// +kubebuilder:rbac:groups=not-deduplicate-groups2,resources=some,verbs=list
// +kubebuilder:rbac:urls=/url-to-duplicate,verbs=get
// +kubebuilder:rbac:urls=/another/url-to-duplicate,verbs=get
// +kubebuilder:rbac:groups=core,resources=deduplicate,verbs=list
// +kubebuilder:rbac:groups="",resources=me,verbs=list
// +kubebuilder:rbac:groups=core;"";some-other-to-deduplicate-with-core,resources=me,verbs=list;get
// +kubebuilder:rbac:groups=deduplicate-groups5,resources=abc,verbs=get;update;patch;create,namespace=here
// +kubebuilder:rbac:groups=deduplicate-groups5,resources=abc,verbs=*,namespace=here
// Test custom roleName to avoid conflicts
// +kubebuilder:rbac:groups=apps,namespace=infrastructure,roleName=infra-deployment-manager,resources=deployments,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups="",namespace=users,roleName=user-secrets-reader,resources=secrets,verbs=get;list;watch
// Test multiple markers with same custom roleName in same namespace (should merge)
// +kubebuilder:rbac:groups=apps,namespace=infrastructure,roleName=infra-deployment-manager,resources=statefulsets,verbs=get;list
// Test backward compatibility - no roleName specified (uses default)
// +kubebuilder:rbac:groups=monitoring,namespace=observability,resources=prometheuses,verbs=get;list

// Reconcile stands for the reconciler the markers above describe, as in kubebuilder's layout.
func Reconcile() {}
