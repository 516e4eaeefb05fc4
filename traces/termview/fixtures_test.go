package termview_test

import (
	"fmt"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// Synthetic recordings shaped like kubeloom's own (DESIGN.md, "Instrumentation
// contract"); times are simulated seconds.

// loop records the iterations of a periodic goroutine, sampled the way the
// recorder samples loops of 1s or less (iterations 1-3 and every tenth).
func loop(r *tt.Recorder, g trace.SpanID, name, iter string, from, to, period, dur float64) {
	sampled := period <= 1
	skipped := 0
	for n := 1; ; n++ {
		at := from + float64(n-1)*period
		if at >= to {
			return
		}
		if sampled && n > 3 && n%10 != 0 {
			skipped++
			continue
		}
		var extra []any
		if skipped > 0 {
			extra = []any{catalog.AttrSkipped, skipped}
			skipped = 0
		}
		r.Iteration(g, name, iter, n, at, min(at+dur, to), extra...)
	}
}

func goroutine(r *tt.Recorder, parent trace.SpanID, name, kind string, from, to, period float64, attrs ...any) trace.SpanID {
	if period > 0 {
		attrs = append(attrs, catalog.AttrGoroutinePeriod, period)
	}
	return r.Goroutine(parent, name, kind, from, to, attrs...)
}

// informerLesson is the stand-alone pods informer with two handlers (the
// informer lessons): 30s, a create at 10s, watches broken at 15s, a delete at 20s.
func informerLesson(r *tt.Recorder) (drop []trace.SpanID) {
	r.Instance("informers", "classic")
	run := r.Span(tt.Root, "run", 0, 30)
	drop = append(drop, run)
	r.Span(run, "NewSharedIndexInformer", 0, 0.01)
	r.Span(run, "AddEventHandler", 0.01, 0.02)
	r.Span(run, "AddEventHandler", 0.02, 0.03)
	create := r.Span(run, "action/create", 10, 10, catalog.AttrObjectKey, "default/web-0")
	r.Span(run, "action/breakWatches", 15, 15)
	r.Span(run, "action/delete", 20, 20, catalog.AttrObjectKey, "default/web-0")
	pods := []any{catalog.AttrInformer, "pods", catalog.AttrResource, "pods"}

	inf := goroutine(r, run, "informer/run", catalog.KindGo, 0.05, 30, 1, pods...)
	drop = append(drop, inf)
	for _, at := range []float64{0.31, 0.32, 0.33, 10.01, 20.01} {
		it := r.Iteration(inf, "informer/run", "processLoop", int(at), at, at+0.002, pods...)
		p := r.Span(it, "Pop", at, at+0.002)
		r.Span(p, "HandleDeltas", at+0.001, at+0.002)
	}

	lw := goroutine(r, inf, "reflector/list-watch", catalog.KindUntil, 0.05, 30, 1, pods...)
	drop = append(drop, lw)
	for n, w := range [][2]float64{{0.1, 15}, {16, 30}} {
		it := r.Iteration(lw, "reflector/list-watch", "ListAndWatch", n+1, w[0], w[1], pods...)
		r.Span(it, "pods.List", w[0], w[0]+0.2)
		watch := r.Span(it, "pods.Watch", w[0]+0.2, w[1])
		rt := goroutine(r, it, "reflector/resync-timer", catalog.KindGo, w[0]+0.2, w[1], 0, pods...)
		if n == 0 {
			r.Event(watch, "watch event", 10, catalog.AttrEventType, "ADDED")
			r.Link(watch, create)
		} else {
			// Still watching when the recording stops.
			drop = append(drop, it, watch, rt)
			r.Event(watch, "watch event", 20, catalog.AttrEventType, "DELETED")
		}
	}
	for _, h := range []string{"handler-1", "handler-2"} {
		attrs := append([]any{catalog.AttrHandler, h}, pods...)
		pop := goroutine(r, inf, "informer/listener-pop", catalog.KindGo, 0.06, 30, 0, attrs...)
		lrun := goroutine(r, inf, "informer/listener-run", catalog.KindGo, 0.06, 30, 0, attrs...)
		drop = append(drop, pop, lrun)
		for i, at := range []float64{0.31, 0.32, 0.33, 10.01, 20.01} {
			r.Iteration(pop, "informer/listener-pop", "pop", i+1, at, at+0.001, attrs...)
			it := r.Iteration(lrun, "informer/listener-run", "run", i+1, at+0.001, at+0.003, attrs...)
			call := "OnAdd"
			if i == 4 {
				call = "OnDelete"
			}
			r.Span(it, call, at+0.001, at+0.003, catalog.AttrObjectKey, fmt.Sprintf("default/web-%d", i))
		}
	}
	return drop
}

func basic() []traces.Span {
	r := tt.New("informer-basics")
	informerLesson(r)
	return r.Spans()
}

// truncated is the informer lesson cut short at 30s by a hard kill: the
// spans that had not ended (the root span, the goroutines still running,
// the open watch) are missing.
func truncated() []traces.Span {
	r := tt.New("informer-basics")
	r.Drop(informerLesson(r)...)
	return r.Spans()
}

// startup is a controller-manager and a kubelet starting: about twenty
// lanes over 30s.
func startup() []traces.Span {
	r := tt.New("cluster-startup")

	run := r.Span(tt.Root, "run", 0, 30)
	for i, step := range []string{"NewCMServer", "AddFlags", "InitLogs", "Run", "BuildConfigFromFlags"} {
		r.Span(run, step, float64(i)*0.02, float64(i)*0.02+0.01)
	}
	g := goroutine(r, run, "cm/log-flush", catalog.KindUntil, 0.05, 30, 5)
	loop(r, g, "cm/log-flush", "Flush", 0.05, 30, 5, 0.001)
	goroutine(r, run, "cm/http-server", catalog.KindGo, 0.1, 30, 0)
	for _, name := range []string{"cm/event-broadcast-loop", "cm/event-log-watcher", "cm/event-sink-watcher"} {
		g := goroutine(r, run, name, catalog.KindGo, 0.1, 30, 0)
		for i, at := range []float64{4.01, 12.5} {
			r.Iteration(g, name, "event", i+1, at, at+0.01)
		}
	}
	acq := goroutine(r, run, "cm/leader-acquire", catalog.KindMain, 0.2, 4, 2)
	for i, at := range []float64{0.2, 2.6} {
		it := r.Iteration(acq, "cm/leader-acquire", "tryAcquireOrRenew", i+1, at, at+0.05)
		r.Span(it, "endpoints.Get", at, at+0.02)
	}
	last := r.Iteration(acq, "cm/leader-acquire", "tryAcquireOrRenew", 3, 3.9, 4)
	r.Span(last, "endpoints.Update", 3.9, 4)
	r.Event(last, "became leader", 4)
	renew := goroutine(r, run, "cm/leader-renew", catalog.KindMain, 4, 30, 2)
	loop(r, renew, "cm/leader-renew", "tryAcquireOrRenew", 4, 30, 2, 0.05)
	main := goroutine(r, run, "cm/controllers-main", catalog.KindGo, 4, 30, 0)
	sc := r.Span(main, "StartControllers", 4, 4.5)
	for _, res := range []string{"pods", "nodes"} {
		attrs := []any{catalog.AttrInformer, res, catalog.AttrResource, res}
		inf := goroutine(r, sc, "informer/run", catalog.KindGo, 4.5, 30, 1, attrs...)
		r.Iteration(inf, "informer/run", "processLoop", 1, 4.8, 4.9, attrs...)
		lw := goroutine(r, inf, "reflector/list-watch", catalog.KindUntil, 4.5, 30, 1, attrs...)
		it := r.Iteration(lw, "reflector/list-watch", "ListAndWatch", 1, 4.5, 30, attrs...)
		r.Span(it, res+".List", 4.5, 4.7)
		w := r.Span(it, res+".Watch", 4.7, 30)
		if res == "pods" {
			r.Event(w, "watch event", 12, catalog.AttrEventType, "ADDED")
		}
		pop := goroutine(r, inf, "informer/listener-pop", catalog.KindGo, 4.5, 30, 0, append(attrs, catalog.AttrHandler, "handler-1")...)
		r.Iteration(pop, "informer/listener-pop", "pop", 1, 4.9, 4.91)
	}
	for _, name := range []string{"cm/replication-controller", "cm/node-lifecycle", "cm/garbage-collector"} {
		g := goroutine(r, sc, name, catalog.KindUntil, 4.4, 30, 5)
		loop(r, g, name, "sync", 4.4, 30, 5, 0.1)
	}

	r.Instance("kubelet", "node-1")
	krun := r.Span(tt.Root, "run", 0, 30)
	for i, step := range []string{"NewKubeletServer", "InitLogs", "initializeModules"} {
		r.Span(krun, step, float64(i)*0.03, float64(i)*0.03+0.02)
	}
	for _, p := range []struct {
		name, iter        string
		from, period, dur float64
	}{
		{"kubelet/log-flush", "Flush", 0.05, 5, 0.001},
		{"kubelet/pleg-relist", "relist", 0.2, 1, 0.01},
		{"kubelet/runtime-up", "updateRuntimeUp", 0.2, 5, 0.05},
		{"kubelet/node-status", "syncNodeStatus", 0.3, 10, 0.2},
		{"kubelet/network-status", "syncNetworkStatus", 0.3, 30, 0.01},
		{"kubelet/container-gc", "Containers/GarbageCollect", 0.4, 60, 0.3},
		{"kubelet/image-gc", "Images/GarbageCollect", 0.4, 300, 0.3},
	} {
		g := goroutine(r, krun, p.name, catalog.KindUntil, p.from, 30, p.period)
		loop(r, g, p.name, p.iter, p.from, 30, p.period, p.dur)
	}
	ml := goroutine(r, krun, "kubelet/main-loop", catalog.KindUntil, 0.5, 30, 0)
	r.Span(ml, "syncLoop", 0.5, 30)
	act := r.Span(krun, "action/create", 12, 12, catalog.AttrObjectKey, "default/web-0")
	w := goroutine(r, ml, "kubelet/pod-worker", catalog.KindGo, 12.1, 30, 0, catalog.AttrObjectKey, "default/web-0")
	r.Link(w, act)
	it := r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, 12.1, 14)
	r.Span(it, "pods.Get", 12.1, 12.2)
	r.Span(it, "pods.UpdateStatus", 13.9, 14)
	return r.Spans()
}

// long is two kubelets over ten minutes: the slow loops (1m container GC,
// 5m image GC) become visible; node-2 is stopped at 3m.
func long() []traces.Span {
	r := tt.New("kubelet-gc")
	for _, node := range []string{"node-10", "node-2"} {
		end := 600.0
		if node == "node-2" {
			end = 180
		}
		r.Instance("kubelet", node)
		run := r.Span(tt.Root, "run", 0, end)
		r.Span(run, "initializeModules", 0, 0.1)
		for _, p := range []struct {
			name, iter  string
			period, dur float64
		}{
			{"kubelet/log-flush", "Flush", 5, 0.001},
			{"kubelet/pleg-relist", "relist", 1, 0.01},
			{"kubelet/node-status", "syncNodeStatus", 10, 0.2},
			{"kubelet/network-status", "syncNetworkStatus", 30, 0.01},
			{"kubelet/eviction", "synchronize", 10, 0.05},
			{"kubelet/container-gc", "Containers/GarbageCollect", 60, 0.3},
			{"kubelet/image-gc", "Images/GarbageCollect", 300, 20},
			{"kubelet/image-detect", "detectImages", 300, 0.5},
		} {
			g := goroutine(r, run, p.name, catalog.KindUntil, 0.2, end, p.period)
			loop(r, g, p.name, p.iter, 0.2, end, p.period, p.dur)
			if p.name == "kubelet/image-gc" && node == "node-10" {
				r.Event(g, "removed image", 300.5, catalog.AttrObjectKey, "nginx:1.9")
				r.Event(g, "removed image", 301, catalog.AttrObjectKey, "busybox")
			}
		}
	}
	r.Instance("kubelet", "node-10")
	r.Span(tt.Root, "action/setImageFSUsage", 240, 240, catalog.AttrNode, "node-10")
	r.Instance("kubelet", "node-2")
	r.Span(tt.Root, "action/stopKubelet", 180, 180, catalog.AttrNode, "node-2")
	return r.Spans()
}

// wide is a kubelet, its node named in Chinese, whose pods' names take
// more cells than runes (Chinese, an emoji) or fewer (an accent written
// as a combining mark): every lane runs to the end of the recording, so
// every lane row ends in the last column.
func wide() []traces.Span {
	r := tt.New("网站-入门").Instance("kubelet", "节点-1")
	run := r.Span(tt.Root, "run", 0, 30)
	ml := goroutine(r, run, "kubelet/main-loop", catalog.KindUntil, 0.1, 30, 0)
	for i, key := range []string{"default/网站-0", "default/网站-1", "default/web-2", "default/cafe\u0301-3", "default/🙂-4"} {
		at := 1 + 2*float64(i)
		w := goroutine(r, ml, "kubelet/pod-worker", catalog.KindGo, at, 30, 0, catalog.AttrObjectKey, key)
		it := r.Iteration(w, "kubelet/pod-worker", "syncPod", 1, at, at+0.5, catalog.AttrObjectKey, key)
		r.Span(it, "pods.UpdateStatus", at+0.4, at+0.5, catalog.AttrObjectKey, key)
	}
	g := goroutine(r, run, "kubelet/pleg-relist", catalog.KindUntil, 0.2, 30, 1)
	loop(r, g, "kubelet/pleg-relist", "relist", 0.2, 30, 1, 0.01)
	return r.Spans()
}
