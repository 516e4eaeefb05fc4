package timeline_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// An outline is Build's timeline without the marks, and each lane's tally
// counts the marks Build gives it: a loop with sampled-out iterations, a
// lane with calls and events, an open lane (its lifetime span lost) and a
// main lane.
func TestOutlineIsBuildWithoutMarks(t *testing.T) {
	r := tt.New("outline")
	run := r.Span(tt.Root, "run", 0, 60)
	r.Instance("kubelet", "node-1")
	g := r.Goroutine(run, "kubelet/pleg-relist", catalog.KindUntil, 1, 60, catalog.AttrGoroutinePeriod, 1.0)
	r.Iteration(g, "kubelet/pleg-relist", "relist", 1, 1, 1.1)
	r.Iteration(g, "kubelet/pleg-relist", "relist", 10, 10, 10.1, catalog.AttrSkipped, int64(8))
	it := r.Iteration(g, "kubelet/pleg-relist", "relist", 20, 20, 20.1, catalog.AttrSkipped, int64(9))
	r.Span(it, "pods.List", 20, 20.05)
	r.Event(it, "pod changed", 20.02)
	w := r.Goroutine(run, "kubelet/pod-worker", catalog.KindGo, 2, 60, catalog.AttrObjectKey, "default/web")
	r.Loop(w, "kubelet/pod-worker", "syncPod", 2, 30, 7, 1)
	r.Span(run, "action/update", 5, 5)
	r.Drop(w)
	spans := r.Spans()

	want := timeline.Build(spans)
	got := timeline.Outline(spans)
	if !got.Outline || want.Outline {
		t.Fatalf("Outline = %v for Outline, %v for Build", got.Outline, want.Outline)
	}
	lanes := 0
	for _, in := range want.Instances {
		for _, l := range in.Lanes {
			lanes++
			skipped := int64(0)
			for _, m := range l.Iterations {
				skipped += m.Skipped
			}
			if tally := (timeline.Tally{Iterations: len(l.Iterations), Skipped: skipped, Calls: len(l.Calls)}); l.Tally != tally {
				t.Errorf("%s: Tally = %+v, want %+v (from its marks)", l.Label, l.Tally, tally)
			}
			l.Iterations, l.Calls, l.Events = nil, nil, nil
		}
	}
	if lanes != 4 {
		t.Fatalf("%d lanes, want 4:\n%s", lanes, strings.Join(shape(want), "\n"))
	}
	want.Outline = true
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outline:\n%s\nwant Build's without marks:\n%s", strings.Join(shape(got), "\n"), strings.Join(shape(want), "\n"))
	}
}

// Spans with only OutlineAttributes and no events outline as the whole
// spans do, but for the lanes' Attributes: Outline reads nothing else.
func TestOutlineAttributesAreEnough(t *testing.T) {
	r := tt.New("enough")
	run := r.Span(tt.Root, "run", 0, 60)
	for n, node := range []string{"node-1", "node-2"} {
		r.Instance("kubelet", node)
		g := r.Goroutine(run, "kubelet/pleg-relist", catalog.KindUntil, 1, 60, catalog.AttrGoroutinePeriod, 1.0, "other", "x")
		r.Iteration(g, "kubelet/pleg-relist", "relist", 10, 10, 10.1, catalog.AttrSkipped, int64(8), "pods", int64(3))
		for _, h := range []string{"a", "b"} {
			ctl := r.Span(run, "controller "+h, 1, 60, catalog.AttrControllerID, "c"+h)
			w := r.Goroutine(ctl, "informer/listener-pop", catalog.KindUntil, 2, 60, catalog.AttrInformer, "pods", catalog.AttrHandler, h)
			its := r.Loop(w, "informer/listener-pop", "pop", 2, 30, 7, 1)
			r.Event(its[0], "notified", 2.5, "n", int64(1))
			r.Link(its[1], its[0])
			if n == 1 {
				r.Drop(w) // an open lane, described by its iterations
			}
		}
	}
	spans := r.Spans()
	want := timeline.Outline(spans)
	keep := map[string]bool{}
	for _, k := range timeline.OutlineAttributes {
		keep[k] = true
	}
	only := func(a traces.Attributes) traces.Attributes {
		b := traces.Attributes{}
		for k, v := range a {
			if keep[k] {
				b[k] = v
			}
		}
		return b
	}
	for i := range spans {
		s := &spans[i]
		s.Attributes, s.Events = only(s.Attributes), nil
		for j := range s.Links {
			s.Links[j].Attributes = only(s.Links[j].Attributes)
		}
	}
	got := timeline.Outline(spans)
	for _, in := range append(got.Instances, want.Instances...) {
		for _, l := range in.Lanes {
			l.Attributes = only(l.Attributes)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outline of the spans with OutlineAttributes only:\n%s\nwant:\n%s", strings.Join(shape(got), "\n"), strings.Join(shape(want), "\n"))
	}
}
