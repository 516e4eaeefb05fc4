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

// Resources the simulated components watch, by plural name, in the
// versions client-go's typed clients store them.
var Resources = map[string]Resource{
	"pods":                       core("pods", "Pod"),
	"nodes":                      core("nodes", "Node"),
	"services":                   core("services", "Service"),
	"endpoints":                  core("endpoints", "Endpoints"),
	"namespaces":                 core("namespaces", "Namespace"),
	"replicationcontrollers":     core("replicationcontrollers", "ReplicationController"),
	"persistentvolumes":          core("persistentvolumes", "PersistentVolume"),
	"persistentvolumeclaims":     core("persistentvolumeclaims", "PersistentVolumeClaim"),
	"serviceaccounts":            core("serviceaccounts", "ServiceAccount"),
	"secrets":                    core("secrets", "Secret"),
	"configmaps":                 core("configmaps", "ConfigMap"),
	"resourcequotas":             core("resourcequotas", "ResourceQuota"),
	"events":                     core("events", "Event"),
	"limitranges":                core("limitranges", "LimitRange"),
	"podtemplates":               core("podtemplates", "PodTemplate"),
	"daemonsets":                 of(appsv1.SchemeGroupVersion, "daemonsets", "DaemonSet"),
	"deployments":                of(appsv1.SchemeGroupVersion, "deployments", "Deployment"),
	"replicasets":                of(appsv1.SchemeGroupVersion, "replicasets", "ReplicaSet"),
	"statefulsets":               of(appsv1.SchemeGroupVersion, "statefulsets", "StatefulSet"),
	"jobs":                       of(batchv1.SchemeGroupVersion, "jobs", "Job"),
	"cronjobs":                   of(batchv1.SchemeGroupVersion, "cronjobs", "CronJob"),
	"horizontalpodautoscalers":   of(autoscalingv1.SchemeGroupVersion, "horizontalpodautoscalers", "HorizontalPodAutoscaler"),
	"poddisruptionbudgets":       of(policyv1.SchemeGroupVersion, "poddisruptionbudgets", "PodDisruptionBudget"),
	"certificatesigningrequests": of(certificatesv1.SchemeGroupVersion, "certificatesigningrequests", "CertificateSigningRequest"),
	"storageclasses":             of(storagev1.SchemeGroupVersion, "storageclasses", "StorageClass"),
	"leases":                     of(coordinationv1.SchemeGroupVersion, "leases", "Lease"),
}

func core(resource, kind string) Resource { return of(corev1.SchemeGroupVersion, resource, kind) }

func of(gv schema.GroupVersion, resource, kind string) Resource {
	return Resource{GVR: gv.WithResource(resource), GVK: gv.WithKind(kind)}
}
