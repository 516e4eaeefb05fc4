package cluster

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// served is what the simulated apiserver advertises through discovery
// (GET /api, /apis): the resources the simulated components list, watch
// and delete, in the versions client-go's typed clients store them. The
// namespace controller empties a namespace of every namespaced resource
// here, and the garbage collector watches every deletable one.
func served() []*metav1.APIResourceList {
	verbs := metav1.Verbs{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	r := func(name, kind string, namespaced bool) metav1.APIResource {
		return metav1.APIResource{Name: name, Kind: kind, Namespaced: namespaced, Verbs: verbs}
	}
	return []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			r("configmaps", "ConfigMap", true),
			r("endpoints", "Endpoints", true),
			r("events", "Event", true),
			r("limitranges", "LimitRange", true),
			r("namespaces", "Namespace", false),
			r("nodes", "Node", false),
			r("persistentvolumeclaims", "PersistentVolumeClaim", true),
			r("persistentvolumes", "PersistentVolume", false),
			r("pods", "Pod", true),
			r("podtemplates", "PodTemplate", true),
			r("replicationcontrollers", "ReplicationController", true),
			r("resourcequotas", "ResourceQuota", true),
			r("secrets", "Secret", true),
			r("serviceaccounts", "ServiceAccount", true),
			r("services", "Service", true),
		}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			r("daemonsets", "DaemonSet", true),
			r("deployments", "Deployment", true),
			r("replicasets", "ReplicaSet", true),
			r("statefulsets", "StatefulSet", true),
		}},
		{GroupVersion: "autoscaling/v1", APIResources: []metav1.APIResource{
			r("horizontalpodautoscalers", "HorizontalPodAutoscaler", true),
		}},
		{GroupVersion: "batch/v1", APIResources: []metav1.APIResource{
			r("cronjobs", "CronJob", true),
			r("jobs", "Job", true),
		}},
		{GroupVersion: "certificates.k8s.io/v1", APIResources: []metav1.APIResource{
			r("certificatesigningrequests", "CertificateSigningRequest", false),
		}},
		{GroupVersion: "coordination.k8s.io/v1", APIResources: []metav1.APIResource{
			r("leases", "Lease", true),
		}},
		{GroupVersion: "policy/v1", APIResources: []metav1.APIResource{
			r("poddisruptionbudgets", "PodDisruptionBudget", true),
		}},
		{GroupVersion: "storage.k8s.io/v1", APIResources: []metav1.APIResource{
			r("storageclasses", "StorageClass", false),
		}},
	}
}
