package kubelet

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func apiPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name),
		Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "app", Image: "nginx:1.11"}}}}
}

// mutate returns a copy of p changed by f.
func mutate(p *corev1.Pod, f func(p *corev1.Pod)) *corev1.Pod {
	p = p.DeepCopy()
	f(p)
	return p
}

// drain returns the updates waiting on the channel, as "OP name,name".
func drain(t *testing.T, c *podConfig, source string) []string {
	t.Helper()
	var out []string
	for {
		select {
		case u := <-c.updates:
			if u.source != source {
				t.Errorf("%s update from source %q, want %q", u.op, u.source, source)
			}
			s := u.op
			for i, p := range u.pods {
				if i == 0 {
					s += " "
				} else {
					s += ","
				}
				s += p.Name
				if got := p.Annotations[annotationSource]; got != source {
					t.Errorf("%s %s: %s = %q, want %q", u.op, p.Name, annotationSource, got, source)
				}
			}
			out = append(out, s)
		default:
			return out
		}
	}
}

// TestMergeSnapshots: each SET snapshot of a source is compared with the
// one before it, as podStorage.Merge does in incremental mode: new pods
// are ADDs, changed spec, labels or annotations UPDATEs, a new deletion
// timestamp a DELETE (graceful), a pod gone a REMOVE and a status-only
// change a RECONCILE; they go out REMOVE, ADD, UPDATE, DELETE, RECONCILE,
// each batch sorted by name.
func TestMergeSnapshots(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	now := metav1.NewTime(time.Date(2016, 11, 1, 0, 0, 0, 0, time.UTC))
	grace := int64(30)
	// The versions of pods a and b the source sends, each changing one thing.
	a1, b1, c, d := apiPod("a"), apiPod("b"), apiPod("c"), apiPod("d")
	a2 := mutate(a1, func(p *corev1.Pod) { p.Status.Phase, p.Status.PodIP = corev1.PodRunning, "10.244.1.2" })     // status
	a3 := mutate(a2, func(p *corev1.Pod) { p.Labels["tier"] = "web" })                                             // labels
	a4 := mutate(a3, func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = &grace; p.Status.PodIP = "10.244.1.3" }) // spec and status
	a5 := mutate(a4, func(p *corev1.Pod) { p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &now, &grace })     // deleted
	b2 := mutate(b1, func(p *corev1.Pod) { p.Spec.Containers[0].Image = "nginx:1.10" })                            // spec
	b3 := mutate(b2, func(p *corev1.Pod) { p.Annotations = map[string]string{"note": "x"} })                       // annotations
	b4 := mutate(b3, func(p *corev1.Pod) { p.Status.Phase = corev1.PodRunning })                                   // status
	cfg := newPodConfig()
	for i, step := range []struct {
		name string
		pods []*corev1.Pod
		want []string
	}{
		{"first snapshot", []*corev1.Pod{c, a1, b1}, []string{"ADD a,b,c"}},
		{"same snapshot", []*corev1.Pod{a1, b1, c}, nil},
		{"status only", []*corev1.Pod{a2, b1, c}, []string{"RECONCILE a"}},
		{"same status again", []*corev1.Pod{a2, b1, c}, nil},
		{"spec", []*corev1.Pod{a2, b2, c}, []string{"UPDATE b"}},
		{"labels and annotations", []*corev1.Pod{a3, b3, c}, []string{"UPDATE a,b"}},
		{"spec and status: an update only", []*corev1.Pod{a4, b3, c}, []string{"UPDATE a"}},
		{"every kind at once", []*corev1.Pod{a5, b4, d}, []string{"REMOVE c", "ADD d", "DELETE a", "RECONCILE b"}},
		{"empty snapshot", nil, []string{"REMOVE a,b,d"}},
		{"empty again", nil, nil},
	} {
		cfg.merge(h.ctx, sourceAPI, podUpdate{pods: step.pods, op: "SET", source: sourceAPI})
		got := drain(t, cfg, sourceAPI)
		if fmt.Sprint(got) != fmt.Sprint(step.want) {
			t.Errorf("step %d (%s): updates %q, want %q", i+1, step.name, got, step.want)
		}
	}
}

// TestMergeCopiesPods: merge keeps copies; the source's objects (a
// reflector's cache) are never annotated or kept.
func TestMergeCopiesPods(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	cfg := newPodConfig()
	a := apiPod("a")
	cfg.merge(h.ctx, sourceAPI, podUpdate{pods: []*corev1.Pod{a}, op: "SET"})
	if a.Annotations != nil {
		t.Errorf("merge annotated the source's pod: %v", a.Annotations)
	}
	u := <-cfg.updates
	if u.pods[0] == a {
		t.Fatal("the ADD carries the source's own object")
	}
	// A change the source makes to its object afterwards is a change the
	// next snapshot shows.
	a.Spec.Containers[0].Image = "nginx:1.10"
	cfg.merge(h.ctx, sourceAPI, podUpdate{pods: []*corev1.Pod{a}, op: "SET"})
	if got := drain(t, cfg, sourceAPI); fmt.Sprint(got) != "[UPDATE a]" {
		t.Errorf("after the source changed its pod: %q, want [UPDATE a]", got)
	}
}

// TestMergeSourcesAreSeparate: a pod known to one source is new to another,
// and one source's snapshot never removes another's pods.
func TestMergeSourcesAreSeparate(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	cfg := newPodConfig()
	static := apiPod("static")
	cfg.merge(h.ctx, sourceFile, podUpdate{pods: []*corev1.Pod{static}, op: "SET"})
	if got := drain(t, cfg, sourceFile); fmt.Sprint(got) != "[ADD static]" {
		t.Errorf("file source: %q, want [ADD static]", got)
	}
	cfg.merge(h.ctx, sourceAPI, podUpdate{pods: []*corev1.Pod{apiPod("web")}, op: "SET"})
	if got := drain(t, cfg, sourceAPI); fmt.Sprint(got) != "[ADD web]" {
		t.Errorf("api source: %q, want [ADD web]", got)
	}
	cfg.merge(h.ctx, sourceAPI, podUpdate{op: "SET"})
	if got := drain(t, cfg, sourceAPI); fmt.Sprint(got) != "[REMOVE web]" {
		t.Errorf("empty api snapshot: %q, want [REMOVE web] only", got)
	}
}

// TestMergeNewPodBeingDeleted: a pod the source has never sent that
// already has a deletion timestamp (the kubelet started while it was
// terminating) is an ADD in podStorage.merge: only a pod it knows can be
// gracefully deleted (checkAndUpdatePod).
func TestMergeNewPodBeingDeleted(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	cfg := newPodConfig()
	now := metav1.NewTime(time.Date(2016, 11, 1, 0, 0, 0, 0, time.UTC))
	p := mutate(apiPod("a"), func(p *corev1.Pod) { p.DeletionTimestamp = &now })
	cfg.merge(h.ctx, sourceAPI, podUpdate{pods: []*corev1.Pod{p}, op: "SET"})
	if got := drain(t, cfg, sourceAPI); fmt.Sprint(got) != "[ADD a]" {
		t.Errorf("new pod with a deletion timestamp: %q, want [ADD a]", got)
	}
}

// TestAllReady: the sources are ready once each configured one has sent a
// snapshot, an empty one included (sourcesReady.AllReady).
func TestAllReady(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	cfg := newPodConfig()
	if !cfg.allReady() {
		t.Error("no source configured: not ready")
	}
	cfg.sources = []string{sourceFile, sourceHTTP, sourceAPI}
	for _, s := range []string{sourceAPI, sourceFile} {
		cfg.merge(h.ctx, s, podUpdate{op: "SET"})
		if cfg.allReady() {
			t.Fatalf("ready after %s, with %s not yet sent", s, sourceHTTP)
		}
	}
	cfg.merge(h.ctx, sourceHTTP, podUpdate{op: "SET"})
	if !cfg.allReady() {
		t.Error("every source sent: not ready")
	}
	if got := drain(t, cfg, ""); len(got) != 0 {
		t.Errorf("empty snapshots sent updates: %q", got)
	}
}

// TestConfigChannel runs the path a source takes: its channel, drained by
// a kubelet/config-mux goroutine that merges each snapshot into updates.
func TestConfigChannel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		defer h.stop()
		cfg := newPodConfig()
		file := cfg.channel(h.ctx, sourceFile)
		api := cfg.channel(h.ctx, sourceAPI)
		if n := h.rt.Live()["kubelet/config-mux"]; n != 2 {
			t.Errorf("%d kubelet/config-mux goroutines, want one per source", n)
		}
		if cfg.allReady() {
			t.Error("ready before any source sent")
		}
		file <- podUpdate{pods: []*corev1.Pod{apiPod("static")}, op: "SET", source: sourceFile}
		api <- podUpdate{op: "SET", source: sourceAPI}
		synctest.Wait()
		if !cfg.allReady() {
			t.Error("not ready after both sources sent")
		}
		if got := drain(t, cfg, sourceFile); fmt.Sprint(got) != "[ADD static]" {
			t.Errorf("updates %q, want [ADD static]", got)
		}
		if merges := h.spansNamed("Merge"); len(merges) != 2 {
			t.Errorf("%d Merge spans, want 2", len(merges))
		}
	})
}
