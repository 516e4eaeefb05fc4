package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// shape describes a timeline in one line per instance and lane:
// "label kind start-end open iterations/calls/events".
func shape(tl *timeline.Timeline) []string {
	var out []string
	for _, in := range tl.Instances {
		out = append(out, in.Name())
		for _, l := range in.Lanes {
			open := ""
			if l.Open {
				open = " open"
			}
			out = append(out, fmt.Sprintf("  %s [%s] %v-%v%s i%d c%d e%d",
				l.Label, l.Kind, tl.Offset(l.Start), tl.Offset(l.End), open,
				len(l.Iterations), len(l.Calls), len(l.Events)))
		}
	}
	return out
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name    string
		record  func(r *tt.Recorder)
		want    []string
		orphans int
	}{{
		name: "main lane and goroutines",
		record: func(r *tt.Recorder) {
			run := r.Span(tt.Root, "run", 0, 30)
			r.Span(run, "NewCMServer", 0, 0.1)
			r.Span(run, "action/create", 10, 10)
			g := r.Goroutine(run, "cm/log-flush", catalog.KindUntil, 0.2, 30, catalog.AttrGoroutinePeriod, 5.0)
			r.Loop(g, "cm/log-flush", "Flush", 0.2, 30, 5, 0.01)
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  main [main] 0s-30s i0 c3 e0",
			"  cm/log-flush [until] 200ms-30s i6 c0 e0",
		},
	}, {
		name: "instances sorted naturally by service then id",
		record: func(r *tt.Recorder) {
			for _, id := range []string{"node-10", "node-2", "node-1"} {
				r.Instance("kubelet", id)
				r.Goroutine(tt.Root, "kubelet/pleg-relist", catalog.KindUntil, 1, 2)
			}
			r.Instance("informers", "modern").Goroutine(tt.Root, "informer/run", catalog.KindGo, 0, 1)
			r.Instance("informers", "classic").Goroutine(tt.Root, "informer/run", catalog.KindGo, 0, 1)
		},
		want: []string{
			"informers classic", "  informer/run [go] 0s-1s i0 c0 e0",
			"informers modern", "  informer/run [go] 0s-1s i0 c0 e0",
			"kubelet node-1", "  kubelet/pleg-relist [until] 1s-2s i0 c0 e0",
			"kubelet node-2", "  kubelet/pleg-relist [until] 1s-2s i0 c0 e0",
			"kubelet node-10", "  kubelet/pleg-relist [until] 1s-2s i0 c0 e0",
		},
	}, {
		name: "same-name goroutines split by qualifiers",
		record: func(r *tt.Recorder) {
			r.Instance("informers", "classic")
			for _, h := range []string{"handler-2", "handler-1"} {
				r.Goroutine(tt.Root, "informer/listener-pop", catalog.KindGo, 1, 9,
					catalog.AttrInformer, "pods", catalog.AttrResource, "pods", catalog.AttrHandler, h)
			}
			r.Goroutine(tt.Root, "informer/run", catalog.KindGo, 1, 9, catalog.AttrInformer, "pods")
		},
		want: []string{
			"informers classic",
			"  informer/listener-pop pods handler-1 [go] 0s-8s i0 c0 e0",
			"  informer/listener-pop pods handler-2 [go] 0s-8s i0 c0 e0",
			"  informer/run [go] 0s-8s i0 c0 e0",
		},
	}, {
		name: "same name and qualifiers numbered in start order",
		record: func(r *tt.Recorder) {
			r.Goroutine(tt.Root, "reflector/resync-timer", catalog.KindGo, 20, 30, catalog.AttrInformer, "pods")
			r.Goroutine(tt.Root, "reflector/resync-timer", catalog.KindGo, 0, 20, catalog.AttrInformer, "pods")
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  reflector/resync-timer pods #1 [go] 0s-20s i0 c0 e0",
			"  reflector/resync-timer pods #2 [go] 20s-30s i0 c0 e0",
		},
	}, {
		name: "lanes ordered by start then label",
		record: func(r *tt.Recorder) {
			r.Goroutine(tt.Root, "cm/b", catalog.KindGo, 2, 3)
			r.Goroutine(tt.Root, "cm/c", catalog.KindGo, 1, 3)
			r.Goroutine(tt.Root, "cm/a", catalog.KindGo, 2, 3)
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  cm/c [go] 0s-2s i0 c0 e0",
			"  cm/a [go] 1s-2s i0 c0 e0",
			"  cm/b [go] 1s-2s i0 c0 e0",
		},
	}, {
		name: "calls and events nest under the nearest lifetime span",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, "reflector/list-watch", catalog.KindUntil, 0, 30)
			it := r.Iteration(g, "reflector/list-watch", "ListAndWatch", 1, 0, 30)
			r.Span(it, "pods.List", 0, 0.1)
			w := r.Span(it, "pods.Watch", 0.1, 30)
			r.Event(w, "watch event", 10, catalog.AttrEventType, "ADDED")
			r.Event(w, "watch event", 12, catalog.AttrEventType, "DELETED")
			// A goroutine started inside another one has its own lane.
			r.Goroutine(it, "reflector/resync-timer", catalog.KindGo, 0.1, 30)
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  reflector/list-watch [until] 0s-30s i1 c2 e2",
			"  reflector/resync-timer [go] 100ms-30s i0 c0 e0",
		},
	}, {
		name: "missing lifetime spans make open lanes from their iterations",
		record: func(r *tt.Recorder) {
			r.Instance("informers", "classic")
			run := r.Span(tt.Root, "run", 0, 1)
			var drop []trace.SpanID
			for _, h := range []string{"handler-1", "handler-2"} {
				g := r.Goroutine(run, "informer/listener-pop", catalog.KindGo, 0.5, 0.5)
				drop = append(drop, g)
				it := r.Iteration(g, "informer/listener-pop", "pop", 1, 2, 3, catalog.AttrHandler, h)
				r.Span(it, "OnAdd", 2, 2.5, catalog.AttrObjectKey, "default/web-0")
				r.Iteration(g, "informer/listener-pop", "pop", 2, 20, 21, catalog.AttrHandler, h)
			}
			r.Drop(drop...)
		},
		want: []string{
			"informers classic",
			"  main [main] 0s-1s i0 c1 e0",
			"  informer/listener-pop handler-1 [] 2s-21s open i2 c1 e0",
			"  informer/listener-pop handler-2 [] 2s-21s open i2 c1 e0",
		},
	}, {
		// A leaked listener-run (goroutine-leak): its lifetime span and its
		// hung OnAdd never end. Its one recorded iteration's object key is the
		// iteration's own, not the goroutine's; two iterations of a pod worker
		// that agree on theirs name the lane.
		name: "open lanes keep only the goroutine attributes their iterations agree on",
		record: func(r *tt.Recorder) {
			r.Instance("informers", "classic")
			run := r.Span(tt.Root, "run", 0, 1)
			var drop []trace.SpanID
			for _, h := range []string{"handler-1", "handler-2"} {
				g := r.Goroutine(run, "informer/listener-run", catalog.KindGo, 0.5, 0.5)
				drop = append(drop, g)
				r.Iteration(g, "informer/listener-run", "OnAdd", 1, 2, 3, catalog.AttrHandler, h, catalog.AttrObjectKey, "default/web-0")
			}
			for _, pod := range []string{"default/web-0", "default/web-1"} {
				w := r.Goroutine(run, "kubelet/pod-worker", catalog.KindGo, 0.5, 0.5)
				drop = append(drop, w)
				r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, 2, 3, catalog.AttrObjectKey, pod, catalog.AttrWorker, "a")
				r.Iteration(w, "kubelet/pod-worker", "syncPod", 2, 4, 5, catalog.AttrObjectKey, pod, catalog.AttrWorker, "b")
			}
			r.Drop(drop...)
		},
		want: []string{
			"informers classic",
			"  main [main] 0s-1s i0 c1 e0",
			"  informer/listener-run handler-1 [] 2s-5s open i1 c0 e0",
			"  informer/listener-run handler-2 [] 2s-5s open i1 c0 e0",
			"  kubelet/pod-worker default/web-0 [] 2s-5s open i2 c0 e0",
			"  kubelet/pod-worker default/web-1 [] 2s-5s open i2 c0 e0",
		},
	}, {
		name: "spans with a missing parent and no goroutine are orphans",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, "reflector/list-watch", catalog.KindUntil, 0, 5)
			it := r.Iteration(g, "reflector/list-watch", "ListAndWatch", 1, 0, 5)
			r.Span(it, "pods.List", 0, 0.1)
			r.Span(trace.SpanID{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "lost", 1, 2) // parent never recorded
			r.Drop(g, it)
		},
		want:    nil,
		orphans: 2,
	}, {
		name: "a root span with goroutine.name gets that lane",
		record: func(r *tt.Recorder) {
			s := r.Span(tt.Root, "tick", 1, 2, catalog.AttrGoroutineName, "cm/leader-renew")
			r.Span(s, "endpoints.Update", 1, 1.5)
			r.Span(tt.Root, "run", 0, 5)
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  main [main] 0s-5s i0 c1 e0",
			"  cm/leader-renew [] 1s-2s i0 c2 e0",
		},
	}, {
		name: "a parent in another instance is not followed",
		record: func(r *tt.Recorder) {
			g := r.Goroutine(tt.Root, "cm/worker", catalog.KindGo, 0, 5)
			r.Instance("kubelet", "node-1").Span(g, "pods.Get", 1, 2)
		},
		want: []string{
			"kube-controller-manager cm-0",
			"  cm/worker [go] 0s-5s i0 c0 e0",
			"kubelet node-1",
			"  main [main] 1s-2s i0 c1 e0",
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tt.New("test")
			tc.record(r)
			tl := timeline.Build(r.Spans())
			if got := shape(tl); !slices.Equal(got, tc.want) {
				t.Errorf("lanes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tl.Orphans != tc.orphans {
				t.Errorf("Orphans = %d, want %d", tl.Orphans, tc.orphans)
			}
			if tl.Spans != len(r.Spans()) {
				t.Errorf("Spans = %d, want %d", tl.Spans, len(r.Spans()))
			}
		})
	}
}

// The exporter writes spans in the order they end; Build must not care.
func TestBuildIgnoresSpanOrder(t *testing.T) {
	r := tt.New("order")
	run := r.Span(tt.Root, "run", 0, 60)
	for n := range 3 {
		r.Instance("kubelet", fmt.Sprintf("node-%d", n+1))
		for _, name := range []string{"kubelet/pleg-relist", "kubelet/node-status", "kubelet/pod-worker", "kubelet/pod-worker"} {
			g := r.Goroutine(run, name, catalog.KindUntil, float64(n), 60, catalog.AttrObjectKey, name+"x")
			its := r.Loop(g, name, "tick", float64(n), 60, 7, 1)
			r.Event(its[1], "e", float64(n)+7.5)
		}
	}
	spans := r.Spans()
	want := timeline.Build(spans)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		shuffled := slices.Clone(spans)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := timeline.Build(shuffled); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled input gives a different timeline:\n%s\nwant\n%s",
				strings.Join(shape(got), "\n"), strings.Join(shape(want), "\n"))
		}
	}
}

func TestBuildEdgeCases(t *testing.T) {
	if tl := timeline.Build(nil); tl.Spans != 0 || len(tl.Instances) != 0 || tl.Duration() != 0 {
		t.Errorf("empty: %+v", tl)
	}
	// A cycle of parents cannot be placed.
	cycle := []traces.Span{
		{Name: "a", TraceID: trace.TraceID{1}, SpanID: trace.SpanID{0xa}, ParentSpanID: trace.SpanID{0xb}, Start: tt.At(0), End: tt.At(1)},
		{Name: "b", TraceID: trace.TraceID{1}, SpanID: trace.SpanID{0xb}, ParentSpanID: trace.SpanID{0xa}, Start: tt.At(0), End: tt.At(1)},
	}
	if tl := timeline.Build(cycle); tl.Orphans != 2 {
		t.Errorf("cycle: Orphans = %d, want 2", tl.Orphans)
	}
	// A span without a resource still shows, under an unnamed instance.
	tl := timeline.Build([]traces.Span{{Name: "x", SpanID: trace.SpanID{1}, Start: tt.At(0), End: tt.At(-1)}})
	if got := shape(tl); !slices.Equal(got, []string{"", "  main [main] 0s-0s i0 c1 e0"}) {
		t.Errorf("no resource: %q", got)
	}
}
