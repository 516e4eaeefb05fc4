package scenarios

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
)

func TestLookupResource(t *testing.T) {
	tests := []struct {
		name       string
		gvr        string
		kind       string
		namespaced bool
	}{
		{"pods", "/v1, Resource=pods", "Pod", true},
		{"nodes", "/v1, Resource=nodes", "Node", false},
		{"namespaces", "/v1, Resource=namespaces", "Namespace", false},
		{"deployments", "apps/v1, Resource=deployments", "Deployment", true},
		{"deployments.apps", "apps/v1, Resource=deployments", "Deployment", true},
		{"jobs", "batch/v1, Resource=jobs", "Job", true},
		{"cronjobs", "batch/v1, Resource=cronjobs", "CronJob", true},
		{"events", "/v1, Resource=events", "Event", true},
		{"events.events.k8s.io", "events.k8s.io/v1, Resource=events", "Event", true},
		{"ingresses", "networking.k8s.io/v1, Resource=ingresses", "Ingress", true},
		{"leases", "coordination.k8s.io/v1, Resource=leases", "Lease", true},
		{"endpoints", "/v1, Resource=endpoints", "Endpoints", true},
		{"horizontalpodautoscalers", "autoscaling/v2, Resource=horizontalpodautoscalers", "HorizontalPodAutoscaler", true},
		{"clusterroles", "rbac.authorization.k8s.io/v1, Resource=clusterroles", "ClusterRole", false},
		{"storageclasses", "storage.k8s.io/v1, Resource=storageclasses", "StorageClass", false},
		{"priorityclasses", "scheduling.k8s.io/v1, Resource=priorityclasses", "PriorityClass", false},
	}
	for _, tt := range tests {
		r, ok := LookupResource(tt.name)
		if !ok {
			t.Errorf("LookupResource(%q) not found", tt.name)
			continue
		}
		if r.GVR.String() != tt.gvr || r.GVK.Kind != tt.kind || r.Namespaced != tt.namespaced {
			t.Errorf("LookupResource(%q) = %+v, want %s %s namespaced=%v", tt.name, r, tt.gvr, tt.kind, tt.namespaced)
		}
		if got, _ := LookupResource(r.String()); got != r {
			t.Errorf("LookupResource(%q.String() = %q) = %+v, want the same resource", tt.name, r.String(), got)
		}
	}
	for _, name := range []string{"pod", "Pods", "scales", "bindings", "tokenreviews", "podlist", "deleteoptions", "", "deployments.extensions.x"} {
		if r, ok := LookupResource(name); ok {
			t.Errorf("LookupResource(%q) = %+v, want none", name, r)
		}
	}
}

func TestResourceForKind(t *testing.T) {
	r, ok := ResourceForKind("apps/v1beta2", "Deployment")
	if !ok || r.GVR.String() != "apps/v1beta2, Resource=deployments" {
		t.Errorf("ResourceForKind(apps/v1beta2, Deployment) = %+v, %v", r, ok)
	}
	if r.String() != "deployments" {
		t.Errorf("String() = %q", r.String())
	}
	for _, c := range [][2]string{{"v1", "PodList"}, {"v1", "DeleteOptions"}, {"autoscaling/v1", "Scale"}, {"v1", "Deployment"}, {"a/b/c", "Pod"}} {
		if r, ok := ResourceForKind(c[0], c[1]); ok {
			t.Errorf("ResourceForKind(%s, %s) = %+v, want none", c[0], c[1], r)
		}
	}
}

// TestClusterScopedMatchesClientset checks the hand-kept list of cluster-scoped resources
// against client-go's typed clientset: the getter of a namespaced resource takes the
// namespace (Pods(namespace string)), the getter of a cluster-scoped one takes nothing
// (Nodes()).
func TestClusterScopedMatchesClientset(t *testing.T) {
	type key struct{ gv, resource string }
	scoped := map[key]bool{} // → namespaced
	cs := reflect.TypeFor[kubernetes.Interface]()
	for i := 0; i < cs.NumMethod(); i++ {
		m := cs.Method(i)
		if m.Type.NumIn() != 0 || m.Type.NumOut() != 1 || m.Type.Out(0).Kind() != reflect.Interface {
			continue
		}
		gvClient := m.Type.Out(0)
		for j := 0; j < gvClient.NumMethod(); j++ {
			g := gvClient.Method(j)
			if g.Type.NumOut() != 1 || g.Type.Out(0).Kind() != reflect.Interface || !strings.HasSuffix(g.Type.Out(0).Name(), "Interface") || g.Name == "RESTClient" {
				continue
			}
			scoped[key{m.Name, strings.ToLower(g.Name)}] = g.Type.NumIn() == 1
		}
	}
	if len(scoped) < 100 {
		t.Fatalf("found only %d typed getters; has client-go's interface changed?", len(scoped))
	}
	// The clientset names group versions like CoreV1, AppsV1beta2, RbacV1alpha1.
	clientName := func(gv schema.GroupVersion) string {
		group := gv.Group
		if group == "" {
			group = "core"
		}
		group = strings.Split(group, ".")[0]
		return strings.ToUpper(group[:1]) + group[1:] + strings.ToUpper(gv.Version[:1]) + gv.Version[1:]
	}
	checked := 0
	for gvk, r := range resources().byGVK {
		namespaced, ok := scoped[key{clientName(gvk.GroupVersion()), r.Name}]
		if !ok {
			continue // e.g. internal.apiserver.k8s.io has no typed client method name we can derive
		}
		checked++
		if namespaced != r.Namespaced {
			t.Errorf("%s: the table says namespaced=%v, the typed clientset says %v; fix clusterScoped in resource.go", r.GVR, r.Namespaced, namespaced)
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d resources against the clientset", checked)
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"podz", "pods", true},
		{"Pods", "pods", true},
		{"dep", "", false},
		{"x", "", false},
		{"deploymnets", "deployments", true},
	}
	for _, tt := range tests {
		got, ok := closest(tt.in, []string{"pods", "nodes", "deployments"})
		if got != tt.want || ok != tt.ok {
			t.Errorf("closest(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
