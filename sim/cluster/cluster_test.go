package cluster

import (
	"context"
	"maps"
	"testing"
	"testing/synctest"

	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func pod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
}

func rv(t *testing.T, c *Cluster, name string) string {
	t.Helper()
	obj, err := c.Get(context.Background(), podsResource(), "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*corev1.Pod).ResourceVersion
}

func TestResourceVersionsFollowTheTracker(t *testing.T) {
	c := New()
	ctx := context.Background()
	p := pod("a")
	if _, err := c.Create(ctx, podsResource(), p); err != nil {
		t.Fatal(err)
	}
	if p.ResourceVersion != "" {
		t.Errorf("the caller's object was changed")
	}
	if got := rv(t, c, "a"); got != "2" {
		t.Errorf("first object rv = %q, want 2", got)
	}
	if _, err := c.Create(ctx, podsResource(), pod("a")); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create: %v", err)
	}
	c.Create(ctx, podsResource(), pod("b"))
	same := pod("a")
	if _, err := c.Update(ctx, podsResource(), same); err != nil {
		t.Fatal(err)
	}
	if got := rv(t, c, "a"); got != "2" {
		t.Errorf("rv after an update that changes nothing = %q, want 2 (not a write)", got)
	}
	changed := pod("a")
	changed.Labels = map[string]string{"tier": "front"}
	c.Update(ctx, podsResource(), changed)
	if got := rv(t, c, "a"); got != "4" {
		t.Errorf("updated rv = %q, want 4 (a failed create does not count)", got)
	}
	list, err := c.List(ctx, podsResource(), corev1.SchemeGroupVersion.WithKind("Pod"), "", metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := list.(*corev1.PodList).ResourceVersion; got != "4" {
		t.Errorf("list rv = %q, want the tracker's 4", got)
	}
	// A watch from the list's version sees only later changes.
	w, err := c.Watch(ctx, podsResource(), "", metav1.ListOptions{ResourceVersion: "4"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	c.Delete(ctx, podsResource(), "default", "b")
	if ev := <-w.ResultChan(); ev.Type != watch.Deleted || ev.Object.(*corev1.Pod).Name != "b" {
		t.Errorf("first event after rv 4 = %v %v", ev.Type, ev.Object)
	}
}

func TestBreakWatchesEndsThemWithGone(t *testing.T) {
	c := New()
	ctx := context.Background()
	w1, _ := c.Watch(ctx, podsResource(), "", metav1.ListOptions{})
	w2, _ := c.Watch(ctx, podsResource(), "default", metav1.ListOptions{})
	if n := c.OpenWatches(podsResource()); n != 2 {
		t.Fatalf("open watches = %d", n)
	}
	if n := c.BreakWatches(ctx, podsResource()); n != 2 {
		t.Errorf("broke %d, want 2", n)
	}
	for _, w := range []watch.Interface{w1, w2} {
		ev := <-w.ResultChan()
		st, ok := ev.Object.(*metav1.Status)
		if ev.Type != watch.Error || !ok || st.Code != 410 || !apierrors.IsResourceExpired(apierrors.FromObject(st)) {
			t.Errorf("event = %v %+v, want a 410 Expired error", ev.Type, ev.Object)
		}
		if _, open := <-w.ResultChan(); open {
			t.Errorf("the watch stays open after the error")
		}
	}
	if n := c.OpenWatches(podsResource()); n != 0 {
		t.Errorf("open watches after the break = %d", n)
	}
}

// A restarted apiserver breaks the watches of every resource, each with
// 410 Gone, and reports how many per resource; a watch already stopped is
// not counted.
func TestBreakAllWatchesEndsEveryResource(t *testing.T) {
	c := New()
	ctx := context.Background()
	nodes := corev1.SchemeGroupVersion.WithResource("nodes")
	var ws []watch.Interface
	for _, gvr := range []schema.GroupVersionResource{podsResource(), podsResource(), nodes} {
		w, err := c.Watch(ctx, gvr, "", metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	stopped, _ := c.Watch(ctx, nodes, "", metav1.ListOptions{})
	stopped.Stop()
	got := c.BreakAllWatches(ctx)
	if want := map[string]int{"pods": 2, "nodes": 1}; !maps.Equal(got, want) {
		t.Errorf("broken = %v, want %v", got, want)
	}
	for i, w := range ws {
		ev := <-w.ResultChan()
		if st, ok := ev.Object.(*metav1.Status); ev.Type != watch.Error || !ok || st.Code != 410 {
			t.Errorf("watch %d: event = %v %+v, want a 410 error", i, ev.Type, ev.Object)
		}
		if _, open := <-w.ResultChan(); open {
			t.Errorf("watch %d stays open after the error", i)
		}
	}
	if n := c.OpenWatches(podsResource()) + c.OpenWatches(nodes); n != 0 {
		t.Errorf("open watches after the restart = %d", n)
	}
	if got := c.BreakAllWatches(ctx); len(got) != 0 {
		t.Errorf("a second restart broke %v; nothing was open", got)
	}
}

// A write through the Cluster's own methods with a context marked by
// WithCause (a scenario action's write) names that span as the cause of
// its watch events; other writes name nothing.
func TestWatchEventsNameTheSpanThatWrote(t *testing.T) {
	c := New()
	action := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	ctx := WithCause(context.Background(), action)
	w, _ := c.Watch(ctx, podsResource(), "", metav1.ListOptions{})
	defer w.Stop()
	cw := w.(interface {
		Cause(watch.Event) trace.SpanContext
	})
	next := func(want watch.EventType) watch.Event {
		t.Helper()
		ev := <-w.ResultChan()
		if ev.Type != want {
			t.Fatalf("event %v, want %v", ev.Type, want)
		}
		return ev
	}

	if _, err := c.Create(ctx, podsResource(), pod("a")); err != nil {
		t.Fatal(err)
	}
	ev := next(watch.Added)
	if got := cw.Cause(ev); !got.Equal(action) {
		t.Errorf("the create's event names %v, want the action's span", got)
	}
	if got := cw.Cause(ev); got.IsValid() {
		t.Errorf("asked twice, the event names %v", got)
	}
	if _, err := c.Client.CoreV1().Pods("default").Create(ctx, pod("b"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := cw.Cause(next(watch.Added)); got.IsValid() {
		t.Errorf("a typed client's create names %v", got)
	}
	if err := c.Delete(trace.ContextWithSpanContext(context.Background(), action), podsResource(), "default", "b"); err != nil {
		t.Fatal(err)
	}
	if got := cw.Cause(next(watch.Deleted)); got.IsValid() {
		t.Errorf("a delete with a span but no cause names %v", got)
	}
	if err := c.Delete(ctx, podsResource(), "default", "a"); err != nil {
		t.Fatal(err)
	}
	if got := cw.Cause(next(watch.Deleted)); !got.Equal(action) {
		t.Errorf("the delete's event names %v, want the action's span", got)
	}
	c.BreakWatches(ctx, podsResource())
	if got := cw.Cause(next(watch.Error)); !got.Equal(action) {
		t.Errorf("the 410 names %v, want the action's span", got)
	}
}

// TestRequestsAreNotHoarded checks that the fake clientset's record of
// every request (kept for tests that inspect Actions) does not grow with
// the length of a run.
func TestRequestsAreNotHoarded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New()
		ctx := context.Background()
		cms := c.Client.CoreV1().ConfigMaps("default")
		cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, metav1.CreateOptions{})
		for range 5000 {
			cms.Get(ctx, "a", metav1.GetOptions{})
		}
		// Each clearing runs on its own goroutine, once the request that
		// asked for it has returned: wait for them all.
		synctest.Wait()
		if n := len(c.Client.Actions()); n > 2048 {
			t.Errorf("the clientset holds %d recorded requests after 5000, want at most 2048", n)
		}
	})
}

// TestStoppedWatchesGetNoEvents checks that a watch stopped by its client
// is dropped at the next write, instead of queueing events nobody reads.
func TestStoppedWatchesGetNoEvents(t *testing.T) {
	c := New()
	ctx := context.Background()
	w, err := c.Watch(ctx, podsResource(), "", metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	c.Create(ctx, podsResource(), pod("a"))
	if n := c.watches[podsResource()].len(); n != 0 {
		t.Errorf("%d watches kept after a write, want the stopped one dropped", n)
	}
}
