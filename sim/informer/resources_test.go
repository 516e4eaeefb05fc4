package informer

import (
	"testing"

	"k8s.io/client-go/kubernetes/scheme"
)

// TestLookupResource checks every resource the simulated components watch:
// it is found under its plural name, in a version whose kind client-go's
// scheme decodes (New checks the same), and no other name is.
func TestLookupResource(t *testing.T) {
	for _, name := range []string{
		"pods", "nodes", "services", "endpoints", "namespaces", "replicationcontrollers", "persistentvolumes",
		"persistentvolumeclaims", "serviceaccounts", "secrets", "configmaps", "resourcequotas", "events", "limitranges",
		"podtemplates", "daemonsets", "deployments", "replicasets", "statefulsets", "jobs", "cronjobs",
		"horizontalpodautoscalers", "poddisruptionbudgets", "certificatesigningrequests", "storageclasses", "leases",
	} {
		r, ok := LookupResource(name)
		if !ok {
			t.Errorf("LookupResource(%q) found nothing", name)
			continue
		}
		if r.GVR.Resource != name || r.GVR.GroupVersion() != r.GVK.GroupVersion() {
			t.Errorf("LookupResource(%q) = %v, %v: want the resource %s in the kind's group/version", name, r.GVR, r.GVK, name)
		}
		if _, err := scheme.Scheme.New(r.GVK); err != nil {
			t.Errorf("LookupResource(%q): %v", name, err)
		}
	}
	for _, name := range []string{"", "pod", "Pods", "widgets"} {
		if r, ok := LookupResource(name); ok {
			t.Errorf("LookupResource(%q) = %v, want nothing", name, r)
		}
	}
}
