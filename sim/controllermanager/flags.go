package controllermanager

import (
	"fmt"
	"net"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubeloom/kubeloom/sim/controllers"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/leaderelection"
)

// server is CMServer: the configuration and what only the command line has.
type server struct {
	*controllers.Config
	logFlushFrequency time.Duration
	featureGates      string
	version           bool
}

// newCMServer is options.NewCMServer: v1.5's defaults; today's lock in era modern.
func newCMServer(era informer.Era) *server {
	s := &server{Config: controllers.NewConfig(), logFlushFrequency: 5 * time.Second}
	if era == informer.Modern {
		s.LeaderElection.ResourceLock = "leases"
	}
	return s
}

// addFlags is CMServer.AddFlags (v1.5, with the help texts of its
// generated reference), plus --log-flush-frequency, which pkg/util/logs
// registers on the same command line. Era modern adds the flags that
// replaced v1.5's constants and the lock flag.
func (s *server) addFlags(fs *pflag.FlagSet, era informer.Era) {
	c := s.Config
	fs.Int32Var(&c.Port, "port", c.Port, "The port that the controller-manager's http service runs on (kubeloom: 0, a free port; Kubernetes: 10252)")
	fs.StringVar(&c.Address, "address", c.Address, "The IP address to serve on (set to 0.0.0.0 for all interfaces) (kubeloom serves only on loopback; Kubernetes: 0.0.0.0)")
	fs.BoolVar(&c.UseServiceAccountCredentials, "use-service-account-credentials", c.UseServiceAccountCredentials, "If true, use individual service account credentials for each controller.")
	fs.StringVar(&c.CloudProvider, "cloud-provider", c.CloudProvider, "The provider for cloud services.  Empty string for no provider.")
	fs.StringVar(&c.CloudConfigFile, "cloud-config", c.CloudConfigFile, "The path to the cloud provider configuration file.  Empty string for no configuration file.")
	fs.Int32Var(&c.ConcurrentEndpointSyncs, "concurrent-endpoint-syncs", c.ConcurrentEndpointSyncs, "The number of endpoint syncing operations that will be done concurrently. Larger number = faster endpoint updating, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentServiceSyncs, "concurrent-service-syncs", c.ConcurrentServiceSyncs, "The number of services that are allowed to sync concurrently. Larger number = more responsive service management, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentRCSyncs, "concurrent_rc_syncs", c.ConcurrentRCSyncs, "The number of replication controllers that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentRSSyncs, "concurrent-replicaset-syncs", c.ConcurrentRSSyncs, "The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentResourceQuotaSyncs, "concurrent-resource-quota-syncs", c.ConcurrentResourceQuotaSyncs, "The number of resource quotas that are allowed to sync concurrently. Larger number = more responsive quota management, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentDeploymentSyncs, "concurrent-deployment-syncs", c.ConcurrentDeploymentSyncs, "The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentNamespaceSyncs, "concurrent-namespace-syncs", c.ConcurrentNamespaceSyncs, "The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load")
	fs.Int32Var(&c.ConcurrentSATokenSyncs, "concurrent-serviceaccount-token-syncs", c.ConcurrentSATokenSyncs, "The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load")
	fs.Int32Var(&c.LookupCacheSizeForRC, "replication-controller-lookup-cache-size", c.LookupCacheSizeForRC, "The the size of lookup cache for replication controllers. Larger number = more responsive replica management, but more MEM load.")
	fs.Int32Var(&c.LookupCacheSizeForRS, "replicaset-lookup-cache-size", c.LookupCacheSizeForRS, "The the size of lookup cache for replicatsets. Larger number = more responsive replica management, but more MEM load.")
	fs.Int32Var(&c.LookupCacheSizeForDaemonSet, "daemonset-lookup-cache-size", c.LookupCacheSizeForDaemonSet, "The the size of lookup cache for daemonsets. Larger number = more responsive daemonsets, but more MEM load.")
	fs.DurationVar(&c.ServiceSyncPeriod.Duration, "service-sync-period", c.ServiceSyncPeriod.Duration, "The period for syncing services with their external load balancers")
	fs.DurationVar(&c.NodeSyncPeriod.Duration, "node-sync-period", 0, "This flag is deprecated and will be removed in future releases. See node-monitor-period for Node health checking or route-reconciliation-period for cloud provider's route configuration settings.")
	fs.MarkDeprecated("node-sync-period", "This flag is currently no-op and will be deleted.")
	fs.DurationVar(&c.RouteReconciliationPeriod.Duration, "route-reconciliation-period", c.RouteReconciliationPeriod.Duration, "The period for reconciling routes created for Nodes by cloud provider.")
	fs.DurationVar(&c.ResourceQuotaSyncPeriod.Duration, "resource-quota-sync-period", c.ResourceQuotaSyncPeriod.Duration, "The period for syncing quota usage status in the system")
	fs.DurationVar(&c.NamespaceSyncPeriod.Duration, "namespace-sync-period", c.NamespaceSyncPeriod.Duration, "The period for syncing namespace life-cycle updates")
	fs.DurationVar(&c.PVClaimBinderSyncPeriod.Duration, "pvclaimbinder-sync-period", c.PVClaimBinderSyncPeriod.Duration, "The period for syncing persistent volumes and persistent volume claims")
	fs.DurationVar(&c.MinResyncPeriod.Duration, "min-resync-period", c.MinResyncPeriod.Duration, "The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod")
	fs.BoolVar(&c.VolumeConfiguration.EnableHostPathProvisioning, "enable-hostpath-provisioner", c.VolumeConfiguration.EnableHostPathProvisioning, "Enable HostPath PV provisioning when running without a cloud provider. This allows testing and development of provisioning features.  HostPath provisioning is not supported in any way, won't work in a multi-node cluster, and should not be used for anything other than testing or development.")
	fs.BoolVar(&c.VolumeConfiguration.EnableDynamicProvisioning, "enable-dynamic-provisioning", c.VolumeConfiguration.EnableDynamicProvisioning, "Enable dynamic provisioning for environments that support it.")
	fs.StringVar(&c.VolumeConfiguration.FlexVolumePluginDir, "flex-volume-plugin-dir", c.VolumeConfiguration.FlexVolumePluginDir, "Full path of the directory in which the flex volume plugin should search for additional third party volume plugins.")
	fs.Int32Var(&c.TerminatedPodGCThreshold, "terminated-pod-gc-threshold", c.TerminatedPodGCThreshold, "Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.")
	fs.DurationVar(&c.HorizontalPodAutoscalerSyncPeriod.Duration, "horizontal-pod-autoscaler-sync-period", c.HorizontalPodAutoscalerSyncPeriod.Duration, "The period for syncing the number of pods in horizontal pod autoscaler.")
	fs.DurationVar(&c.DeploymentControllerSyncPeriod.Duration, "deployment-controller-sync-period", c.DeploymentControllerSyncPeriod.Duration, "Period for syncing the deployments.")
	fs.DurationVar(&c.PodEvictionTimeout.Duration, "pod-eviction-timeout", c.PodEvictionTimeout.Duration, "The grace period for deleting pods on failed nodes.")
	fs.Float32Var(&c.DeletingPodsQps, "deleting-pods-qps", 0.1, "Number of nodes per second on which pods are deleted in case of node failure.")
	fs.MarkDeprecated("deleting-pods-qps", "This flag is currently no-op and will be deleted.")
	fs.Int32Var(&c.DeletingPodsBurst, "deleting-pods-burst", 0, "Number of nodes on which pods are bursty deleted in case of node failure. For more details look into RateLimiter.")
	fs.MarkDeprecated("deleting-pods-burst", "This flag is currently no-op and will be deleted.")
	fs.Int32Var(&c.RegisterRetryCount, "register-retry-count", c.RegisterRetryCount, "The number of retries for initial node registration.  Retry interval equals node-sync-period.")
	fs.MarkDeprecated("register-retry-count", "This flag is currently no-op and will be deleted.")
	fs.DurationVar(&c.NodeMonitorGracePeriod.Duration, "node-monitor-grace-period", c.NodeMonitorGracePeriod.Duration, "Amount of time which we allow running Node to be unresponsive before marking it unhealthy. Must be N times more than kubelet's nodeStatusUpdateFrequency, where N means number of retries allowed for kubelet to post node status.")
	fs.DurationVar(&c.NodeStartupGracePeriod.Duration, "node-startup-grace-period", c.NodeStartupGracePeriod.Duration, "Amount of time which we allow starting Node to be unresponsive before marking it unhealthy.")
	fs.DurationVar(&c.NodeMonitorPeriod.Duration, "node-monitor-period", c.NodeMonitorPeriod.Duration, "The period for syncing NodeStatus in NodeController.")
	fs.StringVar(&c.ServiceAccountKeyFile, "service-account-private-key-file", c.ServiceAccountKeyFile, "Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.")
	fs.StringVar(&c.ClusterSigningCertFile, "cluster-signing-cert-file", c.ClusterSigningCertFile, "Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates (kubeloom: \"generate\" makes a throwaway CA in memory)")
	fs.StringVar(&c.ClusterSigningKeyFile, "cluster-signing-key-file", c.ClusterSigningKeyFile, "Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates (kubeloom: \"generate\" makes a throwaway CA in memory)")
	fs.StringVar(&c.ApproveAllKubeletCSRsForGroup, "insecure-experimental-approve-all-kubelet-csrs-for-group", c.ApproveAllKubeletCSRsForGroup, "The group for which the controller-manager will auto approve all CSRs for kubelet client certificates.")
	fs.BoolVar(&c.EnableProfiling, "profiling", true, "Enable profiling via web interface host:port/debug/pprof/")
	fs.StringVar(&c.ClusterName, "cluster-name", c.ClusterName, "The instance prefix for the cluster")
	fs.StringVar(&c.ClusterCIDR, "cluster-cidr", c.ClusterCIDR, "CIDR Range for Pods in cluster.")
	fs.StringVar(&c.ServiceCIDR, "service-cluster-ip-range", c.ServiceCIDR, "CIDR Range for Services in cluster.")
	fs.Int32Var(&c.NodeCIDRMaskSize, "node-cidr-mask-size", c.NodeCIDRMaskSize, "Mask size for node cidr in cluster.")
	fs.BoolVar(&c.AllocateNodeCIDRs, "allocate-node-cidrs", false, "Should CIDRs for Pods be allocated and set on the cloud provider.")
	fs.BoolVar(&c.ConfigureCloudRoutes, "configure-cloud-routes", true, "Should CIDRs allocated by allocate-node-cidrs be configured on the cloud provider.")
	fs.StringVar(&c.Master, "master", c.Master, "The address of the Kubernetes API server (overrides any value in kubeconfig)")
	fs.StringVar(&c.Kubeconfig, "kubeconfig", c.Kubeconfig, "Path to kubeconfig file with authorization and master location information.")
	fs.StringVar(&c.RootCAFile, "root-ca-file", c.RootCAFile, "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle.")
	fs.StringVar(&c.ContentType, "kube-api-content-type", c.ContentType, "Content type of requests sent to apiserver.")
	fs.Float32Var(&c.KubeAPIQPS, "kube-api-qps", c.KubeAPIQPS, "QPS to use while talking with kubernetes apiserver")
	fs.Int32Var(&c.KubeAPIBurst, "kube-api-burst", c.KubeAPIBurst, "Burst to use while talking with kubernetes apiserver")
	fs.DurationVar(&c.ControllerStartInterval.Duration, "controller-start-interval", c.ControllerStartInterval.Duration, "Interval between starting controller managers.")
	fs.BoolVar(&c.EnableGarbageCollector, "enable-garbage-collector", c.EnableGarbageCollector, "Enables the generic garbage collector. MUST be synced with the corresponding flag of the kube-apiserver.")
	fs.Int32Var(&c.ConcurrentGCSyncs, "concurrent-gc-syncs", c.ConcurrentGCSyncs, "The number of garbage collector workers that are allowed to sync concurrently.")
	fs.Float32Var(&c.NodeEvictionRate, "node-eviction-rate", 0.1, "Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters.")
	fs.Float32Var(&c.SecondaryNodeEvictionRate, "secondary-node-eviction-rate", 0.01, "Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters. This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.")
	fs.Int32Var(&c.LargeClusterSizeThreshold, "large-cluster-size-threshold", 50, "Number of nodes from which NodeController treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.")
	fs.Float32Var(&c.UnhealthyZoneThreshold, "unhealthy-zone-threshold", 0.55, "Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy. ")
	// leaderelection.BindFlags
	le := &c.LeaderElection
	fs.BoolVar(&le.LeaderElect, "leader-elect", le.LeaderElect, "Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.")
	fs.DurationVar(&le.LeaseDuration.Duration, "leader-elect-lease-duration", le.LeaseDuration.Duration, "The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. This is only applicable if leader election is enabled.")
	fs.DurationVar(&le.RenewDeadline.Duration, "leader-elect-renew-deadline", le.RenewDeadline.Duration, "The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than or equal to the lease duration. This is only applicable if leader election is enabled.")
	fs.DurationVar(&le.RetryPeriod.Duration, "leader-elect-retry-period", le.RetryPeriod.Duration, "The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled.")
	fs.StringVar(&s.featureGates, "feature-gates", "", "A set of key=value pairs that describe feature gates for alpha/experimental features.")
	// pkg/util/logs registers this one on pflag.CommandLine.
	fs.DurationVar(&s.logFlushFrequency, "log-flush-frequency", s.logFlushFrequency, "Maximum number of seconds between log flushes")
	fs.BoolVar(&s.version, "version", false, "Print version information and quit")
	if era == informer.Modern {
		fs.StringVar(&le.ResourceLock, "leader-elect-resource-lock", le.ResourceLock, "The type of resource object that is used for locking during leader election. Supported options are 'leases'.")
		fs.Int32Var(&c.ConcurrentDaemonSetSyncs, "concurrent-daemonset-syncs", c.ConcurrentDaemonSetSyncs, "The number of daemonset objects that are allowed to sync concurrently. Larger number = more responsive daemonsets, but more CPU (and network) load")
		fs.Int32Var(&c.ConcurrentJobSyncs, "concurrent-job-syncs", c.ConcurrentJobSyncs, "The number of job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load")
	}
}

// validate refuses what kubeloom cannot simulate, naming the flag.
func (s *server) validate(era informer.Era) error {
	c := s.Config
	bad := func(flag, format string, args ...any) error {
		return &FlagError{Flag: flag, Err: fmt.Errorf(format, args...)}
	}
	if ip := net.ParseIP(c.Address); ip == nil || !ip.IsLoopback() {
		return bad("--address", "%q: kubeloom serves only on a loopback address, such as 127.0.0.1", c.Address)
	}
	if c.Port < 0 || c.Port > 65535 {
		return bad("--port", "%d: expected 0 (a free port) to 65535", c.Port)
	}
	if c.CloudProvider != "" {
		return bad("--cloud-provider", "%q: kubeloom simulates no cloud provider; leave it empty", c.CloudProvider)
	}
	if s.version {
		return bad("--version", "the simulated binary would print its version and exit; remove the flag")
	}
	le := c.LeaderElection
	switch {
	case le.LeaseDuration.Duration <= le.RenewDeadline.Duration:
		return bad("--leader-elect-lease-duration", "%s must be greater than --leader-elect-renew-deadline %s", le.LeaseDuration.Duration, le.RenewDeadline.Duration)
	case le.RetryPeriod.Duration <= 0:
		return bad("--leader-elect-retry-period", "must be greater than zero")
	case le.RenewDeadline.Duration <= time.Duration(leaderelection.JitterFactor*float64(le.RetryPeriod.Duration)):
		return bad("--leader-elect-renew-deadline", "%s must be greater than 1.2 × --leader-elect-retry-period %s", le.RenewDeadline.Duration, le.RetryPeriod.Duration)
	}
	if era == informer.Modern && le.ResourceLock != "leases" {
		return bad("--leader-elect-resource-lock", "%q: only leases exist today (the endpoints and configmaps locks were removed in 1.24)", le.ResourceLock)
	}
	if s.logFlushFrequency <= 0 {
		return bad("--log-flush-frequency", "must be greater than zero")
	}
	workers := []struct {
		flag string
		n    int32
	}{{"--concurrent-endpoint-syncs", c.ConcurrentEndpointSyncs}, {"--concurrent_rc_syncs", c.ConcurrentRCSyncs},
		{"--concurrent-replicaset-syncs", c.ConcurrentRSSyncs}, {"--concurrent-resource-quota-syncs", c.ConcurrentResourceQuotaSyncs},
		{"--concurrent-deployment-syncs", c.ConcurrentDeploymentSyncs}, {"--concurrent-namespace-syncs", c.ConcurrentNamespaceSyncs},
		{"--concurrent-gc-syncs", c.ConcurrentGCSyncs}, {"--concurrent-daemonset-syncs", c.ConcurrentDaemonSetSyncs},
		{"--concurrent-job-syncs", c.ConcurrentJobSyncs}}
	for _, w := range workers {
		if w.n < 1 || w.n > 100 {
			return bad(w.flag, "%d: kubeloom runs 1 to 100 workers", w.n)
		}
	}
	return nil
}
