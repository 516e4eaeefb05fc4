package termview_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// fleet is a controller-manager and nodes kubelets over ten minutes, each
// kubelet with its periodic loops and a pod worker and a probe worker per
// pod: at 100 nodes, 6,200 lanes, about the 6,514 of the 100-node
// recording docs/design.md measures ("Big recordings").
func fleet(nodes int) []traces.Span {
	r := tt.New("fleet")
	run := r.Span(tt.Root, "run", 0, 600)
	for _, res := range []string{"pods", "nodes", "services", "endpoints"} {
		attrs := []any{catalog.AttrInformer, res, catalog.AttrResource, res}
		g := goroutine(r, run, "reflector/list-watch", catalog.KindUntil, 0.1, 600, 1, attrs...)
		it := r.Iteration(g, "reflector/list-watch", "ListAndWatch", 1, 0.1, 600, attrs...)
		r.Span(it, res+".List", 0.1, 0.2)
	}
	for n := 1; n <= nodes; n++ {
		node := fmt.Sprintf("node-%d", n)
		r.Instance("kubelet", node)
		krun := r.Span(tt.Root, "run", 0, 600)
		for _, p := range []struct {
			name, iter string
			period     float64
		}{
			{"kubelet/log-flush", "Flush", 5}, {"kubelet/pleg-relist", "relist", 1},
			{"kubelet/node-status", "syncNodeStatus", 10}, {"kubelet/network-status", "syncNetworkStatus", 30},
			{"kubelet/eviction", "synchronize", 10}, {"kubelet/container-gc", "Containers/GarbageCollect", 60},
			{"kubelet/image-gc", "Images/GarbageCollect", 300}, {"kubelet/status-manager", "syncBatch", 10},
		} {
			g := goroutine(r, krun, p.name, catalog.KindUntil, 0.2, 600, p.period)
			loop(r, g, p.name, p.iter, 0.2, 600, p.period, 0.01)
		}
		for i := range 27 {
			key := fmt.Sprintf("default/web-%d-%d", n, i)
			w := goroutine(r, krun, "kubelet/pod-worker", catalog.KindGo, 1+float64(i), 600, 0, catalog.AttrObjectKey, key)
			it := r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, 1+float64(i), 2+float64(i), catalog.AttrObjectKey, key)
			r.Span(it, "pods.UpdateStatus", 1.5+float64(i), 1.6+float64(i))
			goroutine(r, krun, "kubelet/probe-worker", catalog.KindGo, 2+float64(i), 600, 10, catalog.AttrObjectKey, key)
		}
	}
	return r.Spans()
}

// BenchmarkRender draws the timeline of a 100-node fleet: folded (what
// `kubeloom replay` shows), unfolded (--expand all, a row per lane) and
// unfolded in colour.
func BenchmarkRender(b *testing.B) {
	benchDraw(b, termview.Render, []benchCase{
		{"folded", termview.Options{Width: 160}},
		{"expanded", termview.Options{Width: 160, Expand: []string{"all"}}},
		{"expanded-color", termview.Options{Width: 160, Expand: []string{"all"}, Color: true}},
	})
}

// BenchmarkSummary writes the table of the 100-node fleet's lanes, as
// `kubeloom replay --summary` does, plain and in colour.
func BenchmarkSummary(b *testing.B) {
	benchDraw(b, termview.Summary, []benchCase{
		{"plain", termview.Options{Width: 120}},
		{"color", termview.Options{Width: 120, Color: true}},
	})
}

type benchCase struct {
	name string
	opt  termview.Options
}

// benchDraw runs draw on the 100-node fleet's timeline, a sub-benchmark a case.
func benchDraw(b *testing.B, draw func(io.Writer, *timeline.Timeline, termview.Options) error, cases []benchCase) {
	tl := timeline.Build(fleet(100))
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := draw(io.Discard, tl, bc.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
