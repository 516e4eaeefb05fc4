package controllers

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Config is the part of KubeControllerManagerConfiguration (v1.5
// pkg/apis/componentconfig) that the controller manager and its
// controllers read. /configz serves it as JSON.
type Config struct {
	Port                              int32           `json:"port"`
	Address                           string          `json:"address"`
	CloudProvider                     string          `json:"cloudProvider"`
	CloudConfigFile                   string          `json:"cloudConfigFile"`
	UseServiceAccountCredentials      bool            `json:"useServiceAccountCredentials"`
	ConcurrentEndpointSyncs           int32           `json:"concurrentEndpointSyncs"`
	ConcurrentServiceSyncs            int32           `json:"concurrentServiceSyncs"`
	ConcurrentRCSyncs                 int32           `json:"concurrentRCSyncs"`
	ConcurrentRSSyncs                 int32           `json:"concurrentRSSyncs"`
	ConcurrentDaemonSetSyncs          int32           `json:"concurrentDaemonSetSyncs"`
	ConcurrentJobSyncs                int32           `json:"concurrentJobSyncs"`
	ConcurrentResourceQuotaSyncs      int32           `json:"concurrentResourceQuotaSyncs"`
	ConcurrentDeploymentSyncs         int32           `json:"concurrentDeploymentSyncs"`
	ConcurrentNamespaceSyncs          int32           `json:"concurrentNamespaceSyncs"`
	ConcurrentSATokenSyncs            int32           `json:"concurrentSATokenSyncs"`
	LookupCacheSizeForRC              int32           `json:"lookupCacheSizeForRC"`
	LookupCacheSizeForRS              int32           `json:"lookupCacheSizeForRS"`
	LookupCacheSizeForDaemonSet       int32           `json:"lookupCacheSizeForDaemonSet"`
	ServiceSyncPeriod                 metav1.Duration `json:"serviceSyncPeriod"`
	NodeSyncPeriod                    metav1.Duration `json:"nodeSyncPeriod"`
	RouteReconciliationPeriod         metav1.Duration `json:"routeReconciliationPeriod"`
	ResourceQuotaSyncPeriod           metav1.Duration `json:"resourceQuotaSyncPeriod"`
	NamespaceSyncPeriod               metav1.Duration `json:"namespaceSyncPeriod"`
	PVClaimBinderSyncPeriod           metav1.Duration `json:"pVClaimBinderSyncPeriod"`
	MinResyncPeriod                   metav1.Duration `json:"minResyncPeriod"`
	TerminatedPodGCThreshold          int32           `json:"terminatedPodGCThreshold"`
	HorizontalPodAutoscalerSyncPeriod metav1.Duration `json:"horizontalPodAutoscalerSyncPeriod"`
	DeploymentControllerSyncPeriod    metav1.Duration `json:"deploymentControllerSyncPeriod"`
	PodEvictionTimeout                metav1.Duration `json:"podEvictionTimeout"`
	DeletingPodsQps                   float32         `json:"deletingPodsQps"`
	DeletingPodsBurst                 int32           `json:"deletingPodsBurst"`
	NodeEvictionRate                  float32         `json:"nodeEvictionRate"`
	SecondaryNodeEvictionRate         float32         `json:"secondaryNodeEvictionRate"`
	LargeClusterSizeThreshold         int32           `json:"largeClusterSizeThreshold"`
	UnhealthyZoneThreshold            float32         `json:"unhealthyZoneThreshold"`
	NodeMonitorGracePeriod            metav1.Duration `json:"nodeMonitorGracePeriod"`
	RegisterRetryCount                int32           `json:"registerRetryCount"`
	NodeStartupGracePeriod            metav1.Duration `json:"nodeStartupGracePeriod"`
	NodeMonitorPeriod                 metav1.Duration `json:"nodeMonitorPeriod"`
	ServiceAccountKeyFile             string          `json:"serviceAccountKeyFile"`
	ClusterSigningCertFile            string          `json:"clusterSigningCertFile"`
	ClusterSigningKeyFile             string          `json:"clusterSigningKeyFile"`
	ApproveAllKubeletCSRsForGroup     string          `json:"approveAllKubeletCSRsForGroup"`
	EnableProfiling                   bool            `json:"enableProfiling"`
	ClusterName                       string          `json:"clusterName"`
	ClusterCIDR                       string          `json:"clusterCIDR"`
	ServiceCIDR                       string          `json:"serviceCIDR"`
	NodeCIDRMaskSize                  int32           `json:"nodeCIDRMaskSize"`
	AllocateNodeCIDRs                 bool            `json:"allocateNodeCIDRs"`
	ConfigureCloudRoutes              bool            `json:"configureCloudRoutes"`
	RootCAFile                        string          `json:"rootCAFile"`
	ContentType                       string          `json:"contentType"`
	KubeAPIQPS                        float32         `json:"kubeAPIQPS"`
	KubeAPIBurst                      int32           `json:"kubeAPIBurst"`
	LeaderElection                    LeaderElection  `json:"leaderElection"`
	VolumeConfiguration               Volumes         `json:"volumeConfiguration"`
	ControllerStartInterval           metav1.Duration `json:"controllerStartInterval"`
	EnableGarbageCollector            bool            `json:"enableGarbageCollector"`
	ConcurrentGCSyncs                 int32           `json:"concurrentGCSyncs"`
	// Master and Kubeconfig are the flags BuildConfigFromFlags reads; the
	// simulated controller manager always talks to the fake apiserver.
	Master     string `json:"master,omitempty"`
	Kubeconfig string `json:"kubeconfig,omitempty"`
}

// LeaderElection is componentconfig.LeaderElectionConfiguration.
type LeaderElection struct {
	LeaderElect   bool            `json:"leaderElect"`
	LeaseDuration metav1.Duration `json:"leaseDuration"`
	RenewDeadline metav1.Duration `json:"renewDeadline"`
	RetryPeriod   metav1.Duration `json:"retryPeriod"`
	// ResourceLock is --leader-elect-resource-lock: "leases" today. v1.5's
	// LeaderElectionConfiguration (pkg/apis/componentconfig/types.go) has
	// no such field — Endpoints was the only lock, hard-coded in Run — so
	// it stays empty in classic and /configz leaves it out.
	ResourceLock string `json:"resourceLock,omitempty"`
}

// Volumes is the part of componentconfig.VolumeConfiguration kubeloom keeps.
type Volumes struct {
	EnableHostPathProvisioning bool   `json:"enableHostPathProvisioning"`
	EnableDynamicProvisioning  bool   `json:"enableDynamicProvisioning"`
	FlexVolumePluginDir        string `json:"flexVolumePluginDir"`
}

// NewConfig returns NewCMServer's defaults (v1.5). Address and Port are
// kubeloom's: the simulated server binds 127.0.0.1 on a free port, where
// Kubernetes binds 0.0.0.0:10252.
func NewConfig() *Config {
	d := func(t time.Duration) metav1.Duration { return metav1.Duration{Duration: t} }
	return &Config{
		Port:                              0,
		Address:                           "127.0.0.1",
		ConcurrentEndpointSyncs:           5,
		ConcurrentServiceSyncs:            1,
		ConcurrentRCSyncs:                 5,
		ConcurrentRSSyncs:                 5,
		ConcurrentDaemonSetSyncs:          2,
		ConcurrentJobSyncs:                5,
		ConcurrentResourceQuotaSyncs:      5,
		ConcurrentDeploymentSyncs:         5,
		ConcurrentNamespaceSyncs:          2,
		ConcurrentSATokenSyncs:            5,
		LookupCacheSizeForRC:              4096,
		LookupCacheSizeForRS:              4096,
		LookupCacheSizeForDaemonSet:       1024,
		ServiceSyncPeriod:                 d(5 * time.Minute),
		RouteReconciliationPeriod:         d(10 * time.Second),
		ResourceQuotaSyncPeriod:           d(5 * time.Minute),
		NamespaceSyncPeriod:               d(5 * time.Minute),
		PVClaimBinderSyncPeriod:           d(15 * time.Second),
		HorizontalPodAutoscalerSyncPeriod: d(30 * time.Second),
		DeploymentControllerSyncPeriod:    d(30 * time.Second),
		MinResyncPeriod:                   d(12 * time.Hour),
		RegisterRetryCount:                10,
		PodEvictionTimeout:                d(5 * time.Minute),
		DeletingPodsQps:                   0.1,
		NodeEvictionRate:                  0.1,
		SecondaryNodeEvictionRate:         0.01,
		LargeClusterSizeThreshold:         50,
		UnhealthyZoneThreshold:            0.55,
		NodeMonitorGracePeriod:            d(40 * time.Second),
		NodeStartupGracePeriod:            d(60 * time.Second),
		NodeMonitorPeriod:                 d(5 * time.Second),
		ClusterName:                       "kubernetes",
		NodeCIDRMaskSize:                  24,
		ConfigureCloudRoutes:              true,
		TerminatedPodGCThreshold:          12500,
		VolumeConfiguration: Volumes{
			EnableDynamicProvisioning: true,
			FlexVolumePluginDir:       "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/",
		},
		ContentType:  "application/vnd.kubernetes.protobuf",
		KubeAPIQPS:   20,
		KubeAPIBurst: 30,
		LeaderElection: LeaderElection{
			LeaderElect:   true,
			LeaseDuration: d(15 * time.Second),
			RenewDeadline: d(10 * time.Second),
			RetryPeriod:   d(2 * time.Second),
		},
		ControllerStartInterval: d(0),
		EnableGarbageCollector:  true,
		ConcurrentGCSyncs:       20,
		EnableProfiling:         true,
		ClusterSigningCertFile:  "/etc/kubernetes/ca/ca.pem",
		ClusterSigningKeyFile:   "/etc/kubernetes/ca/ca.key",
	}
}
