package informer

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Resource is a kind of object an informer lists and watches.
type Resource struct {
	GVR schema.GroupVersionResource
	GVK schema.GroupVersionKind
}

// LookupResource returns a resource the simulated components watch, by
// plural name ("pods"), in the version client-go's typed clients store it.
// It reports false for any other name. The table is code, not a map a
// caller could change.
func LookupResource(name string) (Resource, bool) {
	gv, kind := corev1.SchemeGroupVersion, ""
	switch name {
	case "pods":
		kind = "Pod"
	case "nodes":
		kind = "Node"
	case "services":
		kind = "Service"
	case "endpoints":
		kind = "Endpoints"
	case "namespaces":
		kind = "Namespace"
	case "replicationcontrollers":
		kind = "ReplicationController"
	case "persistentvolumes":
		kind = "PersistentVolume"
	case "persistentvolumeclaims":
		kind = "PersistentVolumeClaim"
	case "serviceaccounts":
		kind = "ServiceAccount"
	case "secrets":
		kind = "Secret"
	case "configmaps":
		kind = "ConfigMap"
	case "resourcequotas":
		kind = "ResourceQuota"
	case "events":
		kind = "Event"
	case "limitranges":
		kind = "LimitRange"
	case "podtemplates":
		kind = "PodTemplate"
	case "daemonsets":
		gv, kind = appsv1.SchemeGroupVersion, "DaemonSet"
	case "deployments":
		gv, kind = appsv1.SchemeGroupVersion, "Deployment"
	case "replicasets":
		gv, kind = appsv1.SchemeGroupVersion, "ReplicaSet"
	case "statefulsets":
		gv, kind = appsv1.SchemeGroupVersion, "StatefulSet"
	case "jobs":
		gv, kind = batchv1.SchemeGroupVersion, "Job"
	case "cronjobs":
		gv, kind = batchv1.SchemeGroupVersion, "CronJob"
	case "horizontalpodautoscalers":
		gv, kind = autoscalingv1.SchemeGroupVersion, "HorizontalPodAutoscaler"
	case "poddisruptionbudgets":
		gv, kind = policyv1.SchemeGroupVersion, "PodDisruptionBudget"
	case "certificatesigningrequests":
		gv, kind = certificatesv1.SchemeGroupVersion, "CertificateSigningRequest"
	case "storageclasses":
		gv, kind = storagev1.SchemeGroupVersion, "StorageClass"
	case "leases":
		gv, kind = coordinationv1.SchemeGroupVersion, "Lease"
	default:
		return Resource{}, false
	}
	return Resource{GVR: gv.WithResource(name), GVK: gv.WithKind(kind)}, true
}
