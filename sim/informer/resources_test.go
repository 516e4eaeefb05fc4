package informer

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kubeloom/kubeloom/sim/cluster"
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

// TestAddIndexOnce: an index added twice under one name is added once, and
// indexes what the cache held before it came.
func TestAddIndexOnce(t *testing.T) {
	r, _ := LookupResource("pods")
	inf, err := New(Config{Resource: r.GVR, Kind: r.GVK, Source: cluster.New()})
	if err != nil {
		t.Fatal(err)
	}
	inf.Indexer().Add(pod("a"))
	calls := 0
	byName := func(obj any) ([]string, error) {
		calls++
		return []string{obj.(*corev1.Pod).Name}, nil
	}
	for range 2 {
		if err := inf.AddIndex("name", byName); err != nil {
			t.Fatal(err)
		}
	}
	inf.Indexer().Add(pod("b"))
	got, err := inf.Indexer().ByIndex("name", "a")
	if err != nil || len(got) != 1 || calls != 2 {
		t.Errorf("ByIndex(name, a) = %v, %v after %d index calls; want pod a, the index function called once per pod", got, err, calls)
	}
}
