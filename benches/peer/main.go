// The WebApp operator in Go with controller-runtime: the benchmark peer of webop's generated
// WebApp operator (testdata/webapp-operator). benches/peer_bench runs both against one control
// plane; see README.md.
package main

import (
	"flag"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	appv1 "github.com/webop-dev/webop/benches/peer/api/v1"
)

func main() {
	var metricsAddr, probeAddr string
	var leaderElect bool
	var workers, burst int
	var qps float64
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to; 0 disables it.")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "The address the probe endpoint binds to; 0 disables it.")
	flag.BoolVar(&leaderElect, "leader-elect", false, "Enable leader election for the controller manager.")
	flag.IntVar(&workers, "max-concurrent-reconciles", 1, "WebApps reconciled at the same time.")
	// controller-runtime turns client-go's rate limiter off (QPS -1) and leaves the pace to the
	// API server's priority and fairness; the bench sets the same budget as webop's flags.
	flag.Float64Var(&qps, "kube-api-qps", -1, "Requests per second to the API server (-1: no client-side limit).")
	flag.IntVar(&burst, "kube-api-burst", -1, "Requests above --kube-api-qps in a burst.")
	opts := zap.Options{}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	setupLog := ctrl.Log.WithName("setup")

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(appv1.AddToScheme(scheme))

	config := ctrl.GetConfigOrDie()
	config.QPS, config.Burst = float32(qps), burst
	// The caches hold only the children (by their label) and no managedFields: the objects the
	// reconciler reads, no more.
	children := cache.ByObject{Label: labels.SelectorFromSet(labels.Set{"app.kubernetes.io/managed-by": managedBy})}
	mgr, err := ctrl.NewManager(config, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress: probeAddr,
		LeaderElection:         leaderElect,
		LeaderElectionID:       "webapp-operator.example.com",
		Cache: cache.Options{
			DefaultTransform: cache.TransformStripManagedFields(),
			ByObject:         map[client.Object]cache.ByObject{&appsv1.Deployment{}: children, &corev1.Service{}: children},
		},
	})
	if err != nil {
		setupLog.Error(err, "unable to start manager")
		os.Exit(1)
	}
	reconciler := &WebAppReconciler{Client: mgr.GetClient(), Recorder: mgr.GetEventRecorder("webapp-operator")}
	if err := reconciler.SetupWithManager(mgr, workers); err != nil {
		setupLog.Error(err, "unable to create controller", "controller", "WebApp")
		os.Exit(1)
	}
	utilruntime.Must(mgr.AddHealthzCheck("healthz", healthz.Ping))
	utilruntime.Must(mgr.AddReadyzCheck("readyz", healthz.Ping))
	setupLog.Info("starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "problem running manager")
		os.Exit(1)
	}
}
