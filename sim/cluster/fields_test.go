package cluster

import (
	"context"
	"maps"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// The kubelet's pod source selects spec.nodeName; the apiserver filters
// lists and turns watch events of pods that start or stop matching into
// ADDED and DELETED.
func TestFieldSelectorsFilterListsAndWatches(t *testing.T) {
	c := New()
	ctx := context.Background()
	bound := pod("bound")
	bound.Spec.NodeName = "node-1"
	c.Create(ctx, podsResource(), bound)
	c.Create(ctx, podsResource(), pod("pending"))
	onNode := metav1.ListOptions{FieldSelector: "spec.nodeName=node-1"}
	list, err := c.List(ctx, podsResource(), corev1.SchemeGroupVersion.WithKind("Pod"), "", onNode)
	if err != nil {
		t.Fatal(err)
	}
	if items := list.(*corev1.PodList).Items; len(items) != 1 || items[0].Name != "bound" {
		t.Fatalf("list with spec.nodeName=node-1 = %v, want just bound", items)
	}
	w, err := c.Watch(ctx, podsResource(), "", onNode)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	next := func() (watch.EventType, string) {
		ev := <-w.ResultChan()
		return ev.Type, ev.Object.(*corev1.Pod).Name
	}
	if typ, name := next(); typ != watch.Added || name != "bound" {
		t.Errorf("first event = %s %s, want ADDED bound", typ, name)
	}
	// A watch from the list's version knows the listed pod: its change is
	// a MODIFIED.
	fromList, err := c.Watch(ctx, podsResource(), "", metav1.ListOptions{FieldSelector: "spec.nodeName=node-1", ResourceVersion: list.(*corev1.PodList).ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer fromList.Stop()
	relabelled := bound.DeepCopy()
	relabelled.ResourceVersion = ""
	relabelled.Labels = map[string]string{"tier": "web"}
	c.Update(ctx, podsResource(), relabelled)
	if ev := <-fromList.ResultChan(); ev.Type != watch.Modified {
		t.Errorf("change of a listed pod = %s, want MODIFIED", ev.Type)
	}
	if typ, name := next(); typ != watch.Modified || name != "bound" {
		t.Errorf("change of bound = %s %s, want MODIFIED", typ, name)
	}
	// pending gets bound: it starts matching.
	p := pod("pending")
	p.Spec.NodeName = "node-1"
	c.Update(ctx, podsResource(), p)
	if typ, name := next(); typ != watch.Added || name != "pending" {
		t.Errorf("binding = %s %s, want ADDED pending", typ, name)
	}
	// Pods elsewhere are never seen; a pod moved away is deleted for this watch.
	other := pod("other")
	other.Spec.NodeName = "node-2"
	c.Create(ctx, podsResource(), other)
	p.Spec.NodeName = "node-2"
	c.Update(ctx, podsResource(), p)
	if typ, name := next(); typ != watch.Deleted || name != "pending" {
		t.Errorf("moved away = %s %s, want DELETED pending", typ, name)
	}
}

// TestPodWatchesAreIndexedByNode checks the cacher's indexing: a pod's
// event reaches the watches of its node, of the node it had, and the
// unindexed ones, and no other kubelet's.
func TestPodWatchesAreIndexedByNode(t *testing.T) {
	c := New()
	ctx := context.Background()
	watchOf := func(sel string) watch.Interface {
		w, err := c.Watch(ctx, podsResource(), "", metav1.ListOptions{FieldSelector: sel})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
		return w
	}
	everything, unassigned := watchOf(""), watchOf("spec.nodeName=")
	node2 := watchOf("spec.nodeName=node-2")
	for _, n := range []string{"node-1", "node-3"} {
		watchOf("spec.nodeName=" + n)
	}
	// Which watches an event of a pod goes to, without sending it.
	reached := func(p *corev1.Pod) (n int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		s := c.watches[podsResource()]
		last := maps.Clone(s.last)
		defer func() { s.last = last }()
		s.recipients(p, false, func(*watcher) { n++ })
		return n
	}
	expect := func(w watch.Interface, typ watch.EventType) {
		t.Helper()
		if ev := <-w.ResultChan(); ev.Type != typ {
			t.Errorf("event %s, want %s", ev.Type, typ)
		}
	}
	p := pod("web-0")
	c.Create(ctx, podsResource(), p)
	expect(everything, watch.Added)
	expect(unassigned, watch.Added)
	if n := reached(p); n != 2 {
		t.Errorf("an unassigned pod's event reaches %d watches, want 2 (everything, spec.nodeName=)", n)
	}
	bound := p.DeepCopy()
	bound.Spec.NodeName = "node-2"
	c.Update(ctx, podsResource(), bound)
	expect(everything, watch.Modified)
	expect(unassigned, watch.Deleted)
	expect(node2, watch.Added)
	if n := reached(bound); n != 2 {
		t.Errorf("a node-2 pod's next event reaches %d watches, want 2 (everything, node-2)", n)
	}
	grace := int64(0)
	c.DeleteWithOptions(ctx, podsResource(), "default", "web-0", metav1.DeleteOptions{GracePeriodSeconds: &grace})
	expect(everything, watch.Deleted)
	expect(node2, watch.Deleted)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.watches[podsResource()].last; len(k) != 0 {
		t.Errorf("the nodes of deleted pods are remembered: %v", k)
	}
}

// After an apiserver restart the new watches still know where each pod
// was: a pod created before it and bound after leaves the unassigned
// pods' watch.
func TestIndexedWatchesOutliveBrokenWatches(t *testing.T) {
	c := New()
	ctx := context.Background()
	c.Create(ctx, podsResource(), pod("web-0"))
	c.BreakAllWatches(ctx)
	unassigned, err := c.Watch(ctx, podsResource(), "", metav1.ListOptions{FieldSelector: "spec.nodeName="})
	if err != nil {
		t.Fatal(err)
	}
	defer unassigned.Stop()
	if ev := <-unassigned.ResultChan(); ev.Type != watch.Added {
		t.Fatalf("first event %s, want ADDED web-0", ev.Type)
	}
	bound := pod("web-0")
	bound.Spec.NodeName = "node-1"
	c.Update(ctx, podsResource(), bound)
	c.Create(ctx, podsResource(), pod("web-1")) // an event after it, should it be missing
	if ev := <-unassigned.ResultChan(); ev.Type != watch.Deleted || ev.Object.(*corev1.Pod).Name != "web-0" {
		t.Errorf("the next event on the unassigned watch is %s %s, want DELETED web-0", ev.Type, ev.Object.(*corev1.Pod).Name)
	}
}
