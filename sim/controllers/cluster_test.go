package controllers

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func readyPod(name, app, node, ip string, ready bool) *corev1.Pod {
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": app}},
		Spec:   corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: app, Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}}}
}

func TestEndpointsFollowReadyPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		pods := h.c.Client.CoreV1().Pods("default")
		pods.Create(t.Context(), readyPod("a", "web", "node-1", "10.0.0.1", true), metav1.CreateOptions{})
		pods.Create(t.Context(), readyPod("b", "web", "node-1", "10.0.0.2", false), metav1.CreateOptions{})
		pods.Create(t.Context(), readyPod("c", "web", "", "", false), metav1.CreateOptions{}) // no IP yet: not an endpoint
		h.c.Client.CoreV1().Services("default").Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromString("http")}}}}, metav1.CreateOptions{})
		h.start("endpoint")
		h.after(5 * time.Second)
		ep, err := h.c.Client.CoreV1().Endpoints("default").Get(t.Context(), "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ep.Subsets) != 1 || len(ep.Subsets[0].Addresses) != 1 || ep.Subsets[0].Addresses[0].IP != "10.0.0.1" ||
			len(ep.Subsets[0].NotReadyAddresses) != 1 || ep.Subsets[0].Ports[0].Port != 8080 {
			t.Fatalf("endpoints = %+v, want 10.0.0.1 ready and 10.0.0.2 not ready on port 8080", ep.Subsets)
		}
		// b becomes ready: its address moves.
		b, _ := pods.Get(t.Context(), "b", metav1.GetOptions{})
		b.Status.Conditions[0].Status = corev1.ConditionTrue
		pods.UpdateStatus(t.Context(), b, metav1.UpdateOptions{})
		h.after(5 * time.Second)
		ep, _ = h.c.Client.CoreV1().Endpoints("default").Get(t.Context(), "web", metav1.GetOptions{})
		if len(ep.Subsets[0].Addresses) != 2 {
			t.Errorf("after b is ready: %+v", ep.Subsets)
		}
		// A pod whose "http" port is another number gets a subset of its
		// own: each address keeps the port its own pod serves.
		d := readyPod("d", "web", "node-1", "10.0.0.4", true)
		d.Spec.Containers[0].Ports[0].ContainerPort = 9090
		pods.Create(t.Context(), d, metav1.CreateOptions{})
		h.after(5 * time.Second)
		ep, _ = h.c.Client.CoreV1().Endpoints("default").Get(t.Context(), "web", metav1.GetOptions{})
		ports := map[string]int32{}
		for _, s := range ep.Subsets {
			for _, a := range s.Addresses {
				ports[a.IP] = s.Ports[0].Port
			}
		}
		if len(ep.Subsets) != 2 || ports["10.0.0.1"] != 8080 || ports["10.0.0.2"] != 8080 || ports["10.0.0.4"] != 9090 {
			t.Errorf("with a pod on port 9090: %+v, want 10.0.0.1 and .2 on 8080, .4 on 9090", ep.Subsets)
		}
		// The service goes: so do its endpoints.
		h.c.Client.CoreV1().Services("default").Delete(t.Context(), "web", metav1.DeleteOptions{})
		h.after(5 * time.Second)
		if _, err := h.c.Client.CoreV1().Endpoints("default").Get(t.Context(), "web", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("endpoints of a deleted service: %v", err)
		}
		h.stop()
	})
}

func TestPodGCDeletesTerminatedAndOrphanedPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.cc.Config.TerminatedPodGCThreshold = 1
		pods := h.c.Client.CoreV1().Pods("default")
		h.c.Client.CoreV1().Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}, metav1.CreateOptions{})
		for i := range 3 {
			p := readyPod(fmt.Sprint("done-", i), "batch", "node-1", "", false)
			p.Status.Phase = corev1.PodSucceeded
			pods.Create(t.Context(), p, metav1.CreateOptions{})
			h.after(time.Second) // creation order: done-0 is the oldest
		}
		pods.Create(t.Context(), readyPod("stray", "web", "node-gone", "10.0.0.9", true), metav1.CreateOptions{})
		h.start("podgc")
		h.after(25 * time.Second)
		list, _ := pods.List(t.Context(), metav1.ListOptions{})
		var left []string
		for _, p := range list.Items {
			left = append(left, p.Name)
		}
		if fmt.Sprint(left) != "[done-2]" {
			t.Errorf("pods left = %v, want the newest terminated pod only", left)
		}
		spans := h.stop()
		if n := len(named(spans, "controller/podgc/delete-pod")); n != 2 {
			t.Errorf("delete-pod goroutines = %d, want one per terminated pod deleted", n)
		}
	})
}

func TestNamespaceIsEmptiedThenRemoved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "scratch"}}, metav1.CreateOptions{})
		h.c.Client.CoreV1().ConfigMaps("scratch").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}}, metav1.CreateOptions{})
		h.c.Client.CoreV1().Pods("scratch").Create(t.Context(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}, metav1.CreateOptions{})
		h.start("namespace")
		h.after(10 * time.Second)
		if err := h.c.Client.CoreV1().Namespaces().Delete(t.Context(), "scratch", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		h.after(3 * time.Second) // events are delayed 5s
		if ns, err := h.c.Client.CoreV1().Namespaces().Get(t.Context(), "scratch", metav1.GetOptions{}); err != nil || ns.Status.Phase != corev1.NamespaceTerminating {
			t.Fatalf("3s after the delete: %v %v, want Terminating", err, ns)
		}
		h.after(10 * time.Second)
		if _, err := h.c.Client.CoreV1().Namespaces().Get(t.Context(), "scratch", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("the namespace after the controller ran: %v, want it gone", err)
		}
		if cms, _ := h.c.Client.CoreV1().ConfigMaps("scratch").List(t.Context(), metav1.ListOptions{}); len(cms.Items) != 0 {
			t.Errorf("config maps left: %v", cms.Items)
		}
		spans := h.stop()
		if len(named(spans, "configmaps.DeleteCollection")) == 0 || len(named(spans, "namespaces.Finalize")) != 1 {
			t.Errorf("want a configmaps.DeleteCollection and one namespaces.Finalize span")
		}
	})
}

func TestServiceAccountsCreatesDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.start("serviceaccount")
		h.after(2 * time.Second)
		h.c.Client.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, metav1.CreateOptions{})
		h.after(2 * time.Second)
		for _, ns := range []string{"default", "kube-system", "kube-public", "team-a"} {
			if _, err := h.c.Client.CoreV1().ServiceAccounts(ns).Get(t.Context(), "default", metav1.GetOptions{}); err != nil {
				t.Errorf("%s/default: %v", ns, err)
			}
		}
		h.stop()
	})
}

// heartbeat posts a node's Ready condition as its kubelet would.
func heartbeat(h *harness, name string) {
	n, err := h.c.Client.CoreV1().Nodes().Get(h.t.Context(), name, metav1.GetOptions{})
	now := metav1.NewTime(h.clk.Now())
	if err != nil {
		n, _ = h.c.Client.CoreV1().Nodes().Create(h.t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{NodeInfo: corev1.NodeSystemInfo{KubeletVersion: "v1.5.1"}}}, metav1.CreateOptions{})
	}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now}}
	h.c.Client.CoreV1().Nodes().UpdateStatus(h.t.Context(), n, metav1.UpdateOptions{})
}

func nodeReady(t *testing.T, h *harness, name string) corev1.ConditionStatus {
	n, err := h.c.Client.CoreV1().Nodes().Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return condition(&n.Status, corev1.NodeReady).Status
}

func TestNodeControllerMarksSilentNodesAndEvictsTheirPods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		heartbeat(h, "node-1")
		heartbeat(h, "node-2")
		h.c.Client.CoreV1().Pods("default").Create(t.Context(), readyPod("on-2", "web", "node-2", "10.0.0.2", true), metav1.CreateOptions{})
		h.start("node")
		silentSince := h.clk.Now()
		var unknownAt time.Time
		for range 60 { // node-1 keeps its kubelet, node-2 has gone silent
			h.after(10 * time.Second)
			heartbeat(h, "node-1")
			if unknownAt.IsZero() && nodeReady(t, h, "node-2") == corev1.ConditionUnknown {
				unknownAt = h.clk.Now()
			}
		}
		if d := unknownAt.Sub(silentSince); d < 40*time.Second || d > 50*time.Second+5*time.Second {
			t.Errorf("node-2 marked Unknown %s after its last heartbeat, want 40s (the grace period) + up to 10s", d)
		}
		if nodeReady(t, h, "node-1") != corev1.ConditionTrue {
			t.Errorf("node-1 lost its Ready condition")
		}
		p, _ := h.c.Client.CoreV1().Pods("default").Get(t.Context(), "on-2", metav1.GetOptions{})
		if isPodReady(p) {
			t.Errorf("the pod on the silent node is still Ready")
		}
		if p.DeletionTimestamp == nil || p.Status.Reason != "NodeLost" {
			t.Errorf("after the eviction timeout the pod is not being deleted: %+v %q", p.DeletionTimestamp, p.Status.Reason)
		}
		if r := eventReasons(t, h, "default"); r["NodeNotReady"] != 1 || r["DeletingAllPods"] != 1 || r["RegisteredNode"] != 2 {
			t.Errorf("events = %v", r)
		}
		h.stop()
	})
}

func TestNodeControllerDoesNotEvictWhenAllNodesAreDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		heartbeat(h, "node-1")
		h.c.Client.CoreV1().Pods("default").Create(t.Context(), readyPod("only", "web", "node-1", "10.0.0.1", true), metav1.CreateOptions{})
		h.start("node")
		h.after(7 * time.Minute)
		p, _ := h.c.Client.CoreV1().Pods("default").Get(t.Context(), "only", metav1.GetOptions{})
		if nodeReady(t, h, "node-1") != corev1.ConditionUnknown || p.DeletionTimestamp != nil {
			t.Errorf("with every node down the controller assumes its own network is at fault and evicts nothing; pod %+v", p.DeletionTimestamp)
		}
		spans := h.stop()
		found := false
		for _, s := range named(spans, "monitorNodeStatus") {
			for _, e := range s.Events {
				found = found || e.Name == "NodeController detected that all Nodes are not-Ready. Entering master disruption mode."
			}
		}
		if !found {
			t.Errorf("no master disruption event")
		}
	})
}

func TestGarbageCollectorDeletesDependentsOfGoneOwners(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		owner, _ := h.c.Client.AppsV1().ReplicaSets("default").Create(t.Context(), &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "owner"},
			Spec: appsv1.ReplicaSetSpec{Selector: selector("x"), Template: template("x")}}, metav1.CreateOptions{})
		ref := controllerRef(owner, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))
		for _, n := range []string{"child-1", "child-2"} {
			h.c.Client.CoreV1().Pods("default").Create(t.Context(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: n, OwnerReferences: []metav1.OwnerReference{ref}}}, metav1.CreateOptions{})
		}
		ghost := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "never-existed", UID: "5f1e0000-0000-4000-8000-000000000000"}
		h.c.Client.CoreV1().Secrets("default").Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "orphan", OwnerReferences: []metav1.OwnerReference{ghost}}}, metav1.CreateOptions{})
		h.start("garbagecollector")
		h.after(15 * time.Second) // monitors sync, then a 10s poll
		if _, err := h.c.Client.CoreV1().Secrets("default").Get(t.Context(), "orphan", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("a dependent of an owner that never existed: %v, want it deleted", err)
		}
		if pods, _ := h.c.Client.CoreV1().Pods("default").List(t.Context(), metav1.ListOptions{}); len(pods.Items) != 2 {
			t.Fatalf("dependents of a live owner were deleted")
		}
		h.c.Client.AppsV1().ReplicaSets("default").Delete(t.Context(), "owner", metav1.DeleteOptions{})
		h.after(5 * time.Second)
		if pods, _ := h.c.Client.CoreV1().Pods("default").List(t.Context(), metav1.ListOptions{}); len(pods.Items) != 0 {
			t.Errorf("pods left after their owner was deleted: %d", len(pods.Items))
		}
		// Orphaning: the owner goes with the orphan policy, its dependents stay, unowned.
		owner2, _ := h.c.Client.AppsV1().ReplicaSets("default").Create(t.Context(), &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "owner-2"},
			Spec: appsv1.ReplicaSetSpec{Selector: selector("y"), Template: template("y")}}, metav1.CreateOptions{})
		h.c.Client.CoreV1().Pods("default").Create(t.Context(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "kept",
			OwnerReferences: []metav1.OwnerReference{controllerRef(owner2, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}}}, metav1.CreateOptions{})
		h.after(time.Second)
		h.c.Client.AppsV1().ReplicaSets("default").Delete(t.Context(), "owner-2", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationOrphan)})
		h.after(5 * time.Second)
		kept, err := h.c.Client.CoreV1().Pods("default").Get(t.Context(), "kept", metav1.GetOptions{})
		if err != nil || len(kept.OwnerReferences) != 0 {
			t.Errorf("orphaned pod: %v %+v, want it kept without owner", err, kept)
		}
		if _, err := h.c.Client.AppsV1().ReplicaSets("default").Get(t.Context(), "owner-2", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("the orphaning owner: %v, want it gone once its finalizer was removed", err)
		}
		h.stop()
	})
}
