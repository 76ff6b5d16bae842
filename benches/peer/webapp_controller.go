package main

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	appv1 "github.com/webop-dev/webop/benches/peer/api/v1"
)

const (
	// fieldOwner is the field manager of everything the controller applies: the golden's.
	fieldOwner = "webapp-operator-controller"
	// managedBy labels the children, so that the caches hold only them (see main.go).
	managedBy = "webapp-operator"
)

// WebAppReconciler runs the image of each WebApp as a Deployment `<name>-deploy`, exposes it
// through a Service `<name>-svc` and reports the Deployment's rollout in the WebApp's status,
// with the status rules of the golden's controller (webapp_controller.rs).
type WebAppReconciler struct {
	client.Client
	Recorder events.EventRecorder
}

// +kubebuilder:rbac:groups=app.example.com,resources=webapps,verbs=get;list;watch
// +kubebuilder:rbac:groups=app.example.com,resources=webapps/status,verbs=patch
// +kubebuilder:rbac:groups=app.example.com,resources=webapps/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=list;watch;create;patch
// +kubebuilder:rbac:groups="",resources=services,verbs=list;watch;create;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile applies the children of the WebApp and writes its status when it changed.
func (r *WebAppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var webapp appv1.WebApp
	if err := r.Get(ctx, req.NamespacedName, &webapp); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// Deletion is the garbage collector's: applying children now would recreate what it removes.
	if !webapp.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	rollout, applyErr := r.applyChildren(ctx, &webapp)
	if applyErr != nil {
		r.Recorder.Eventf(&webapp, nil, corev1.EventTypeWarning, "ReconcileFailed", "Reconcile", "%s", applyErr.Error())
	}
	status := desiredStatus(&webapp, rollout, applyErr)
	// An unchanged status costs no request; writing it anyway would only bump resourceVersion.
	if !equality.Semantic.DeepEqual(webapp.Status, status) {
		patch := client.MergeFrom(webapp.DeepCopy())
		webapp.Status = status
		if err := r.Status().Patch(ctx, &webapp, patch); err != nil {
			return ctrl.Result{}, err
		}
	}
	// No requeue: the watches on the WebApp and its children bring the next reconcile.
	return ctrl.Result{}, applyErr
}

// applyChildren server-side applies the Deployment, then the Service, and reads the rollout
// from the Deployment the API server answered with.
func (r *WebAppReconciler) applyChildren(ctx context.Context, webapp *appv1.WebApp) (*rollout, error) {
	owner := metav1ac.OwnerReference().
		WithAPIVersion(appv1.GroupVersion.String()).WithKind("WebApp").
		WithName(webapp.Name).WithUID(webapp.UID).
		WithController(true).WithBlockOwnerDeletion(true)
	deployment := desiredDeployment(webapp).WithOwnerReferences(owner)
	if err := r.Apply(ctx, deployment, client.FieldOwner(fieldOwner), client.ForceOwnership); err != nil {
		return nil, applyError("Deployment", *deployment.Name, err)
	}
	service := desiredService(webapp).WithOwnerReferences(owner)
	if err := r.Apply(ctx, service, client.FieldOwner(fieldOwner), client.ForceOwnership); err != nil {
		return nil, applyError("Service", *service.Name, err)
	}
	return rolloutOf(deployment), nil
}

// childError carries the condition reason of a failed apply.
type childError struct {
	reason string
	err    error
}

func (e *childError) Error() string { return e.err.Error() }
func (e *childError) Unwrap() error { return e.err }

func applyError(kind, name string, err error) error {
	if apierrors.IsInvalid(err) {
		return &childError{"InvalidChild", fmt.Errorf("%s %s is invalid: %w", kind, name, err)}
	}
	return &childError{"ApplyFailed", fmt.Errorf("cannot apply %s %s: %w", kind, name, err)}
}

// childLabels are the children's and the Pods' labels, also the selector of both children.
func childLabels(webapp *appv1.WebApp) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       "webapp",
		"app.kubernetes.io/instance":   webapp.Name,
		"app.kubernetes.io/managed-by": managedBy,
	}
}

func desiredDeployment(webapp *appv1.WebApp) *appsv1ac.DeploymentApplyConfiguration {
	resources := corev1ac.ResourceRequirements().WithRequests(corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("10m"),
		corev1.ResourceMemory: resource.MustParse("64Mi"),
	})
	if r := webapp.Spec.Resources; r != nil {
		resources = corev1ac.ResourceRequirements().WithRequests(r.Requests).WithLimits(r.Limits)
		for _, claim := range r.Claims {
			resources.WithClaims(corev1ac.ResourceClaim().WithName(claim.Name).WithRequest(claim.Request))
		}
	}
	container := corev1ac.Container().
		WithName("webapp").
		WithImage(webapp.Spec.Image).
		WithPorts(corev1ac.ContainerPort().
			WithContainerPort(webapp.Spec.Port).WithName("http").WithProtocol(corev1.ProtocolTCP)).
		WithResources(resources).
		// Pod Security "restricted": the image must run as a non-root user.
		WithSecurityContext(corev1ac.SecurityContext().
			WithAllowPrivilegeEscalation(false).
			WithRunAsNonRoot(true).
			WithCapabilities(corev1ac.Capabilities().WithDrop("ALL")))
	pod := corev1ac.PodSpec().
		WithContainers(container).
		WithSecurityContext(corev1ac.PodSecurityContext().
			WithRunAsNonRoot(true).
			WithSeccompProfile(corev1ac.SeccompProfile().WithType(corev1.SeccompProfileTypeRuntimeDefault)))
	return appsv1ac.Deployment(webapp.Name+"-deploy", webapp.Namespace).
		WithLabels(childLabels(webapp)).
		WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(webapp.Spec.Replicas).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(childLabels(webapp))).
			WithTemplate(corev1ac.PodTemplateSpec().WithLabels(childLabels(webapp)).WithSpec(pod)))
}

func desiredService(webapp *appv1.WebApp) *corev1ac.ServiceApplyConfiguration {
	port := webapp.Spec.Port
	return corev1ac.Service(webapp.Name+"-svc", webapp.Namespace).
		WithLabels(childLabels(webapp)).
		WithSpec(corev1ac.ServiceSpec().
			WithSelector(childLabels(webapp)).
			WithType(corev1.ServiceTypeClusterIP).
			WithPorts(corev1ac.ServicePort().
				WithName("http").WithPort(port).
				WithTargetPort(intstr.FromInt32(port)).WithProtocol(corev1.ProtocolTCP)))
}

// rollout is a Deployment's rollout as kstatus reads it: in progress, complete or failed.
type rollout struct {
	desired, available int32
	phase              appv1.WebAppPhase
	reason, message    string
}

func (r *rollout) summary() string {
	return fmt.Sprintf("%d/%d replicas available", r.available, r.desired)
}

// rolloutOf reads the Deployment's status; its conditions count only once the Deployment
// controller has observed the current generation, so an old spec's failure is never reported.
func rolloutOf(d *appsv1ac.DeploymentApplyConfiguration) *rollout {
	var spec appsv1ac.DeploymentSpecApplyConfiguration
	if d.Spec != nil {
		spec = *d.Spec
	}
	var status appsv1ac.DeploymentStatusApplyConfiguration
	if d.Status != nil {
		status = *d.Status
	}
	r := &rollout{desired: ptr.Deref(spec.Replicas, 1), available: ptr.Deref(status.AvailableReplicas, 0)}
	observed := status.ObservedGeneration != nil && *status.ObservedGeneration >= ptr.Deref(d.Generation, 0)
	updated, total := ptr.Deref(status.UpdatedReplicas, 0), ptr.Deref(status.Replicas, 0)
	for _, c := range status.Conditions {
		kind, state := ptr.Deref(c.Type, ""), ptr.Deref(c.Status, "")
		stuck := kind == appsv1.DeploymentProgressing && state == corev1.ConditionFalse
		failing := kind == appsv1.DeploymentReplicaFailure && state == corev1.ConditionTrue
		if observed && (stuck || failing) {
			r.phase, r.reason, r.message = appv1.WebAppFailed, ptr.Deref(c.Reason, string(kind)), ptr.Deref(c.Message, "")
			return r
		}
	}
	if observed && updated >= r.desired && total <= updated && r.available >= r.desired {
		r.phase, r.reason, r.message = appv1.WebAppRunning, "RolloutComplete", r.summary()
	} else {
		r.phase, r.reason, r.message = appv1.WebAppPending, "RollingOut", r.summary()
	}
	return r
}

// desiredStatus is the status after a reconcile: the rollout, or why the children could not be
// applied. Times move only when something changed, so an unchanged state yields the current
// status, which Reconcile then does not write.
func desiredStatus(webapp *appv1.WebApp, r *rollout, applyErr error) appv1.WebAppStatus {
	status := *webapp.Status.DeepCopy()
	generation := webapp.Generation
	set := func(kind string, ok bool, reason, message string) {
		state := metav1.ConditionFalse
		if ok {
			state = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&status.Conditions, metav1.Condition{
			Type: kind, Status: state, Reason: reason, Message: message, ObservedGeneration: generation,
		})
	}
	if applyErr != nil {
		reason := "ApplyFailed"
		if child, ok := applyErr.(*childError); ok {
			reason = child.reason
		}
		r = &rollout{phase: appv1.WebAppFailed, reason: reason, message: applyErr.Error()}
	} else {
		status.AvailableReplicas = r.available
		ok, why := r.available >= r.desired, "ReplicasUnavailable"
		if ok {
			why = "MinimumReplicasAvailable"
		}
		set("Available", ok, why, r.summary())
	}
	status.Phase = r.phase
	set("Progressing", r.phase == appv1.WebAppPending, r.reason, r.message)
	if r.phase == appv1.WebAppFailed {
		set("Degraded", true, r.reason, r.message)
	} else {
		set("Degraded", false, "AsExpected", "")
	}
	if !equality.Semantic.DeepEqual(webapp.Status, status) {
		status.LastUpdateTime = ptr.To(metav1.Now())
	}
	return status
}

// SetupWithManager watches WebApps (spec changes only: status writes need no reconcile) and the
// Deployments and Services they own.
func (r *WebAppReconciler) SetupWithManager(mgr ctrl.Manager, workers int) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&appv1.WebApp{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
		Named("webapp").
		Complete(r)
}
