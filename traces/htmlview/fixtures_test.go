package htmlview

import (
	"fmt"
	"math"
	"strings"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// small is a recording with a bit of everything: two instances, a main
// lane with startup steps, a periodic loop with sampled iterations, a
// goroutine whose calls carry object keys, events, a goroutine that was
// still running when the recording ended (its lifetime span is missing),
// one that kubeloom's catalog does not know, and causal links.
func small() []traces.Span {
	r := tt.New("small").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	r.Span(run, "NewKubeletServer", 0, 0.01)
	runKubelet := r.Span(run, "RunKubelet", 0.01, 0.02, catalog.AttrCodeFunction, "app.RunKubelet")
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 1, 120, catalog.AttrGoroutinePeriod, 60.0,
		catalog.AttrCodeFunction, "kl.StartGarbageCollection", catalog.AttrCodeFile, "pkg/kubelet/kubelet.go")
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 1, 120, 60, 0.2)
	sync := r.Goroutine(run, "kubelet/main-loop", catalog.KindGo, 0.5, 120)
	for n := 1; n <= 5; n++ {
		at := float64(n) * 10
		it := r.Iteration(sync, "kubelet/main-loop", "syncLoopIteration", n, at, at+0.5,
			catalog.AttrSkipped, n-1)
		pod := r.Span(it, "syncPod", at+0.1, at+0.3, catalog.AttrObjectKey, fmt.Sprintf("default/web-%d", n))
		r.Event(it, "became leader", at+0.2, "weird", math.Inf(1), "big", int64(1)<<60)
		switch n {
		case 1: // causal links: to a call on another lane, to a lifetime span
			r.Link(pod, runKubelet)
			r.Link(it, gc)
		case 2: // and to a span the recording lacks
			r.Link(pod, trace.SpanID{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef})
		}
	}
	open := r.Goroutine(run, "kubelet/pleg", catalog.KindUntil, 0.7, 200)
	r.Loop(open, "kubelet/pleg", "relist", 1, 120, 30, 0.1)
	r.Drop(open)
	stranger := r.Goroutine(run, "kubelet/not-in-the-catalog", catalog.KindGo, 2, 3)
	r.Link(stranger, runKubelet) // a goroutine started because of a call, as a pod worker is

	r.Instance("kube-controller-manager", "cm-0")
	cm := r.Span(tt.Root, "run", 0, 100)
	r.Span(cm, "StartControllers", 1, 1.5, "html", "</script><script>alert(1)</script>")
	return r.Spans()
}

// synthetic is a recording of exactly n spans shaped like a large scenario:
// ten kubelets, each with a main lane and every periodic goroutine of the
// kubelet's catalog, loops from dense (thousands of iterations) to sparse,
// a call (an API call with an object key) in every fourth iteration and an
// event in every tenth, over ten simulated minutes.
func synthetic(n int) []traces.Span {
	const nodes, duration = 10, 600.0
	var names []string
	for _, e := range catalog.All() {
		if strings.HasPrefix(e.Name, "kubelet/") {
			names = append(names, e.Name)
		}
	}
	lanes := nodes * len(names)
	// Lane j gets a share of the spans proportional to 2^(j mod 6).
	var weights []float64
	total := 0.0
	for j := range lanes {
		w := math.Pow(2, float64(j%6))
		weights = append(weights, w)
		total += w
	}
	budget := float64(n - nodes*2) // each node: run span and one startup step
	r := tt.New("synthetic")
	j := 0
	var firstRun trace.SpanID
	for node := 1; node <= nodes; node++ {
		r.Instance("kubelet", fmt.Sprintf("node-%d", node))
		run := r.Span(tt.Root, "run", 0, duration)
		if !firstRun.IsValid() {
			firstRun = run
		}
		r.Span(run, "RunKubelet", 0, 0.01)
		for _, g := range names {
			share := budget * weights[j] / total
			j++
			// Spans of a lane: 1 lifetime + k iterations + k/4 calls.
			k := max(1, int((share-1)/1.25))
			period := (duration - 1) / float64(k)
			life := r.Goroutine(run, g, catalog.KindUntil, 0.5, duration, catalog.AttrGoroutinePeriod, period)
			for i := range k {
				at := 0.5 + float64(i)*period
				it := r.Iteration(life, g, "iterate", i+1, at, at+period/3)
				if i%4 == 0 {
					r.Span(it, "pods.List", at+period/10, at+period/5, catalog.AttrObjectKey, fmt.Sprintf("default/pod-%d", i%50))
				}
				if i%10 == 0 {
					r.Event(it, "watch event", at+period/8, catalog.AttrEventType, "MODIFIED")
				}
			}
		}
	}
	// Top up (or trim) to exactly n with startup steps on the first node.
	spans := r.Spans()
	r.Instance("kubelet", "node-1")
	for i := len(spans); i < n; i++ {
		r.Span(firstRun, fmt.Sprintf("step-%d", i), 0.01, 0.02)
	}
	spans = r.Spans()
	if len(spans) > n {
		spans = spans[:n]
	}
	return spans
}
