package webhook

// The cases of controller-tools' pkg/webhook testdata (validating and mutating webhooks, both
// side-effect classes, webhookVersions, reinvocationPolicy) and what else a marker can say:
// a URL instead of a path, a custom Service with a port, the core group, the `*` verb, a named
// configuration, Ignore and Exact.

// +kubebuilder:webhook:webhookVersions=v1,verbs=create;update,path=/validate-testdata-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,matchPolicy=Equivalent,groups=testdata.kubebuilder.io,resources=cronjobs,versions=v1,name=validation.cronjob.testdata.kubebuilder.io,sideEffects=None,timeoutSeconds=10,admissionReviewVersions=v1;v1beta1
// +kubebuilder:webhook:verbs=create;update,path=/validate-testdata-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,matchPolicy=Equivalent,groups=testdata.kubebuilder.io,resources=cronjobs,versions=v1,name=validation.cronjob.testdata.kubebuilder.io,sideEffects=NoneOnDryRun,timeoutSeconds=10,admissionReviewVersions=v1;v1beta1
// +kubebuilder:webhook:webhookVersions=v1,verbs=create;update,path=/mutate-testdata-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,matchPolicy=Equivalent,groups=testdata.kubebuilder.io,resources=cronjobs,versions=v1,name=default.cronjob.testdata.kubebuilder.io,sideEffects=None,timeoutSeconds=10,admissionReviewVersions=v1;v1beta1,reinvocationPolicy=Never
// +kubebuilder:webhook:verbs=Create;DELETE,url="https://webhooks.example.com:8443/validate-pods",mutating=false,failurePolicy=Ignore,matchPolicy=Exact,groups=core,resources=pods,versions=v1,name=apods.example.com,sideEffects=None,admissionReviewVersions=v1
// +kubebuilder:webhook:verbs=*,path=/mutate-apps-v1-deployment,mutating=true,failurePolicy=fail,groups=apps,resources=deployments;deployments/scale,versions=v1,name=mdeployment.example.com,sideEffects=NoneOnDryRun,admissionReviewVersions=v1,serviceName=my-webhooks,serviceNamespace=operators,servicePort=9443,reinvocationPolicy=IfNeeded
// +kubebuilder:webhookconfiguration:mutating=true,name=webop-mutating-configuration
