//go:build unix

package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/podstartup"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// BenchmarkReplaySummary1M: `kubeloom replay FILE --summary` of a recording
// of one million spans (about 1.3 GB): reading it, building the timeline
// and writing the table. The recording is synthetic but shaped like a long
// run of kubeloom's: 5 instances (a controller-manager, three kubelets and
// the scenario), about 200 goroutine lanes, loops of 100ms to 5m sampled as
// the recorder samples them, API calls and handler calls under their
// iterations, watch events, and causal links between goroutines. It is
// written by traces.Recorder, so its lines are exactly a real recording's.
// KUBELOOM_BENCH_RECORDING=FILE replays that recording instead (such as a
// 100-node run: docs/design.md, "Big recordings").
//
// Besides ns/op it reports the peak resident set of the process
// (getrusage's ru_maxrss) before and after the replay, in MB, and the CPU
// time (user and system) of an operation.
//
//	go test ./cmd/kubeloom -run '^$' -bench ReplaySummary1M -benchtime 1x
func BenchmarkReplaySummary1M(b *testing.B) {
	benchReplay(b, traces.ReadOptions{Attributes: timeline.OutlineAttributes, NoEvents: true}, "build-s/op", "summary-s/op",
		func(spans []traces.Span) func() error {
			tl := timeline.Outline(spans)
			return func() error { return termview.Summary(io.Discard, tl, termview.Options{Width: 120}) }
		})
}

// BenchmarkReplayLatency1M: `kubeloom replay FILE --latency` of the
// recording of BenchmarkReplaySummary1M (or KUBELOOM_BENCH_RECORDING's: a
// cluster-scale run has 3,000 pods to measure), phase by phase as the
// summary's: reading only podstartup.Attributes, collecting the pods'
// moments and reckoning the table. It reports the same measures, so that
// the two read side by side: --latency must cost no more than --summary.
//
//	go test ./cmd/kubeloom -run '^$' -bench ReplayLatency1M -benchtime 1x
func BenchmarkReplayLatency1M(b *testing.B) {
	pods := 0
	benchReplay(b, traces.ReadOptions{Attributes: podstartup.Attributes, NoEvents: true}, "collect-s/op", "table-s/op",
		func(spans []traces.Span) func() error {
			var c podstartup.Collector
			c.Spans(spans)
			r := c.Report()
			pods = len(r.Pods)
			return func() error { return termview.Latency(io.Discard, r, termview.LatencyOptions{Width: 120}) }
		})
	b.ReportMetric(float64(pods), "pods")
}

// benchReplay is what runReplay does with the recording of the big
// benchmarks (benchRecording), phase by phase: reading it, keeping of its
// spans what opt says; build, which makes what is shown from the spans and
// returns what renders it; the rendering. Besides measure's measures it
// reports the seconds of each phase per operation: "read-s/op", then
// built and rendered as named.
func benchReplay(b *testing.B, opt traces.ReadOptions, built, rendered string, build func([]traces.Span) (render func() error)) {
	b.Helper()
	path, n, size := benchRecording(b)
	report := measure(b, size)
	var read, building, rendering time.Duration
	for b.Loop() {
		t0 := time.Now()
		spans, done, err := readRecording(context.Background(), path, opt)
		if err != nil || len(spans) != n {
			b.Fatalf("read %d of %d spans: %v", len(spans), n, err)
		}
		t1 := time.Now()
		render := build(spans)
		t2 := time.Now()
		if err := render(); err != nil {
			b.Fatal(err)
		}
		done()
		read, building, rendering = read+t1.Sub(t0), building+t2.Sub(t1), rendering+time.Since(t2)
	}
	report(n)
	ops := float64(b.N)
	b.ReportMetric(read.Seconds()/ops, "read-s/op")
	b.ReportMetric(building.Seconds()/ops, built)
	b.ReportMetric(rendering.Seconds()/ops, rendered)
}

// BenchmarkExportHTML1M: `kubeloom export FILE --format html` of the
// recording of BenchmarkReplaySummary1M (or KUBELOOM_BENCH_RECORDING's),
// the whole command, to a file. It reports the same measures.
//
//	go test ./cmd/kubeloom -run '^$' -bench ExportHTML1M -benchtime 1x
func BenchmarkExportHTML1M(b *testing.B) {
	path, n, size := benchRecording(b)
	out := filepath.Join(b.TempDir(), "export.html")
	report := measure(b, size)
	for b.Loop() {
		var stdout, stderr strings.Builder
		s := streams{in: strings.NewReader(""), out: &stdout, err: &stderr}
		if err := runExport(&exportOptions{io: s, file: path, format: "html", out: out}); err != nil {
			b.Fatalf("%v\n%s", err, stderr.String())
		}
		if want := fmt.Sprintf("(html, %d spans)", n); !strings.Contains(stdout.String(), want) {
			b.Fatalf("export says %q, want %q", stdout.String(), want)
		}
	}
	report(n)
	if fi, err := os.Stat(out); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "page-MB")
	}
}

// benchRecording is the recording the big-recording benchmarks read: the
// file KUBELOOM_BENCH_RECORDING names, else a synthetic one of a million
// spans. It returns its path, its number of spans and its size.
func benchRecording(b *testing.B) (path string, spans int, size int64) {
	b.Helper()
	if path := os.Getenv("KUBELOOM_BENCH_RECORDING"); path != "" {
		// Its lines, counted without holding it: a plain recording of
		// whole lines has one span a line.
		f, err := os.Open(path)
		if err != nil {
			b.Fatalf("KUBELOOM_BENCH_RECORDING: %v", err)
		}
		defer f.Close()
		buf := make([]byte, 1<<20)
		for {
			n, err := f.Read(buf)
			spans += bytes.Count(buf[:n], []byte{'\n'})
			size += int64(n)
			if err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		return path, spans, size
	}
	path = filepath.Join(b.TempDir(), "soak-1M.jsonl")
	n, size := generateSoak(b, path, 1_000_000)
	return path, n, size
}

// measure starts measuring a benchmark of a big recording that reads
// bytes of text an operation: it collects the garbage so far and returns
// the memory to the system, notes the peak resident set and the CPU time.
// Called after the loop with the spans an operation reads, its result
// reports the CPU time (user and system) of an operation, "cpu-s/op", the
// spans, "spans", and the peak resident set (getrusage's ru_maxrss) after
// and before the loop, "peak-RSS-MB" and "RSS-before-MB".
func measure(b *testing.B, bytes int64) (report func(spans int)) {
	runtime.GC()
	debug.FreeOSMemory()
	before := maxRSS()
	b.SetBytes(bytes)
	cpu0 := cpuTime()
	return func(spans int) {
		b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		b.ReportMetric(float64(spans), "spans")
		b.ReportMetric(float64(maxRSS())/(1<<20), "peak-RSS-MB")
		b.ReportMetric(float64(before)/(1<<20), "RSS-before-MB")
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSS is the process's peak resident set size in bytes.
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes on macOS
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// TestSoakRecordingReplays checks a small soak recording: it reads without
// error, every lane of its instances is there, the summary counts every
// span, and is the one of the timeline of every span with its marks.
func TestSoakRecordingReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "soak.jsonl")
	n, _ := generateSoak(t, path, 20_000)
	spans, err := traces.ReadFile(path)
	if err != nil || len(spans) != n {
		t.Fatalf("read %d spans of %d: %v", len(spans), n, err)
	}
	out, _, err := execute(t, "replay", path, "--summary")
	if err != nil {
		t.Fatal(err)
	}
	// Read with all of the spans and built with their marks, the table
	// is the same.
	var full strings.Builder
	if err := termview.Summary(&full, timeline.Build(spans), termview.Options{}); err != nil {
		t.Fatal(err)
	}
	if out != full.String() {
		t.Errorf("replay --summary:\n%s\nwant the summary of the timeline of all the spans:\n%s", out, full.String())
	}
	for _, want := range []string{"soak · ", "5 instances", "kube-controller-manager cm-0", "kubelet node-3", "kubeloom scenario",
		"informer/listener-run secrets handler-2", "kubelet/pod-worker default/web-4", fmt.Sprintf("%d spans", n)} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// soakLane is one goroutine of the synthetic recording.
type soakLane struct {
	inst      *soakInstance
	name      string // goroutine.name
	kind      string
	period    time.Duration // 0: event-driven, ticks at random
	iter      string        // iteration span name
	quals     []attribute.KeyValue
	calls     func(g *soakGen, l *soakLane, parent trace.SpanContext, at time.Time) time.Time
	self      trace.SpanContext
	start     time.Time
	next      time.Time
	n         int64 // iterations so far
	skipped   int64
	lastCause trace.SpanContext // a recent span that later iterations of other lanes link to
	index     int
}

type soakInstance struct {
	service, id string
	res         *resource.Resource
	traceID     trace.TraceID
	run         trace.SpanContext
}

type laneHeap []*soakLane

func (h laneHeap) Len() int           { return len(h) }
func (h laneHeap) Less(i, j int) bool { return h[i].next.Before(h[j].next) }
func (h laneHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *laneHeap) Push(x any)        { l := x.(*soakLane); l.index = len(*h); *h = append(*h, l) }
func (h *laneHeap) Pop() any {
	old := *h
	l := old[len(old)-1]
	*h = old[:len(old)-1]
	return l
}

type soakGen struct {
	rec    *traces.Recorder
	batch  tracetest.SpanStubs
	rng    *rand.Rand
	ids    uint64
	spans  int
	scope  instrumentation.Scope
	origin time.Time
	err    error
}

func (g *soakGen) spanID(tid trace.TraceID) trace.SpanContext {
	g.ids++
	x := g.ids * 0x9e3779b97f4a7c15 // spread the counter over the bits, like random IDs
	var sid trace.SpanID
	binary.BigEndian.PutUint64(sid[:], x^(x>>29))
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
}

func (g *soakGen) emit(s tracetest.SpanStub) {
	s.InstrumentationScope = g.scope
	s.SpanKind = trace.SpanKindInternal
	g.batch = append(g.batch, s)
	g.spans++
	if len(g.batch) == 512 {
		g.flush()
	}
}

func (g *soakGen) flush() {
	if len(g.batch) == 0 || g.err != nil {
		return
	}
	g.err = g.rec.ExportSpans(context.Background(), g.batch.Snapshots())
	g.batch = g.batch[:0]
}

// call records a child span under parent and returns it.
func (g *soakGen) call(in *soakInstance, parent trace.SpanContext, name string, at time.Time, d time.Duration, attrs ...attribute.KeyValue) trace.SpanContext {
	sc := g.spanID(in.traceID)
	g.emit(tracetest.SpanStub{Name: name, SpanContext: sc, Parent: parent, StartTime: at, EndTime: at.Add(d), Attributes: attrs, Resource: in.res})
	return sc
}

func cause(sc trace.SpanContext, key string) []sdktrace.Link {
	if !sc.IsValid() {
		return nil
	}
	return []sdktrace.Link{{SpanContext: sc, Attributes: []attribute.KeyValue{
		attribute.String(catalog.AttrLink, catalog.LinkCause), attribute.String(catalog.AttrObjectKey, key)}}}
}

var soakResources = []string{"pods", "nodes", "services", "endpoints", "replicasets", "deployments", "daemonsets",
	"jobs", "namespaces", "persistentvolumes", "secrets", "configmaps"}

// generateSoak writes a synthetic recording of about n spans to path and
// returns how many spans it wrote and the file's size.
func generateSoak(tb testing.TB, path string, n int) (int, int64) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	g := &soakGen{
		rec:    traces.NewRecorder(bw),
		rng:    rand.New(rand.NewPCG(1, 2)),
		scope:  instrumentation.Scope{Name: "github.com/kubeloom/kubeloom/sim"},
		origin: time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC),
	}
	newInstance := func(service, id string) *soakInstance {
		in := &soakInstance{service: service, id: id, res: resource.NewSchemaless(
			attribute.String(catalog.AttrEra, "classic"),
			attribute.String(catalog.AttrScenario, "soak"),
			attribute.String(catalog.AttrServiceInstanceID, id),
			attribute.String(catalog.AttrServiceName, service),
		)}
		binary.BigEndian.PutUint64(in.traceID[:8], g.rng.Uint64())
		binary.BigEndian.PutUint64(in.traceID[8:], g.rng.Uint64())
		in.run = g.spanID(in.traceID)
		return in
	}
	scenario := newInstance("kubeloom", "scenario")
	cm := newInstance("kube-controller-manager", "cm-0")
	nodes := []*soakInstance{newInstance("kubelet", "node-1"), newInstance("kubelet", "node-2"), newInstance("kubelet", "node-3")}

	var lanes []*soakLane
	lane := func(in *soakInstance, name, kind string, period time.Duration, iter string, quals []attribute.KeyValue,
		calls func(g *soakGen, l *soakLane, parent trace.SpanContext, at time.Time) time.Time) *soakLane {
		l := &soakLane{inst: in, name: name, kind: kind, period: period, iter: iter, quals: quals, calls: calls}
		l.start = g.origin.Add(time.Duration(len(lanes)) * 7 * time.Millisecond)
		l.next = l.start.Add(time.Duration(g.rng.Int64N(int64(time.Second))))
		l.self = g.spanID(in.traceID)
		lanes = append(lanes, l)
		return l
	}
	key := func() string { return fmt.Sprintf("default/web-%d", g.rng.IntN(50)) }

	// The scenario's actions: the causes of the watch events.
	actions := lane(scenario, "", "", 30*time.Second, "action/update", nil, nil)

	// The controller-manager: a shared informer per resource (run, list-watch,
	// two handlers' pop and run), and controller workers.
	for _, res := range soakResources {
		q := []attribute.KeyValue{attribute.String(catalog.AttrInformer, res), attribute.String(catalog.AttrResource, res)}
		lw := lane(cm, "reflector/list-watch", catalog.KindUntil, 5*time.Minute, "ListAndWatch", q,
			func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
				g.call(l.inst, p, res+".List", at, 20*time.Millisecond, attribute.String(catalog.AttrResource, res))
				w := g.spanID(l.inst.traceID)
				end := at.Add(l.period - time.Second)
				var events []sdktrace.Event
				for i := range 3 {
					events = append(events, sdktrace.Event{Name: "watch event", Time: at.Add(time.Duration(i+1) * 50 * time.Second),
						Attributes: []attribute.KeyValue{attribute.String(catalog.AttrEventType, "MODIFIED"), attribute.String(catalog.AttrObjectKey, key())}})
				}
				g.emit(tracetest.SpanStub{Name: res + ".Watch", SpanContext: w, Parent: p, StartTime: at.Add(20 * time.Millisecond), EndTime: end,
					Events: events, Links: cause(actions.lastCause, key()), Resource: l.inst.res})
				l.lastCause = w
				return end
			})
		lane(cm, "informer/run", catalog.KindUntil, 0, "processLoop", q,
			func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
				k := key()
				pop := g.call(l.inst, p, "Pop", at, 300*time.Microsecond, attribute.String(catalog.AttrObjectKey, k), attribute.Int("deltas", 1))
				g.emit(tracetest.SpanStub{Name: "HandleDeltas", SpanContext: g.spanID(l.inst.traceID), Parent: pop, StartTime: at.Add(100 * time.Microsecond),
					EndTime: at.Add(250 * time.Microsecond), Links: cause(lw.lastCause, k), Resource: l.inst.res,
					Attributes: []attribute.KeyValue{attribute.String(catalog.AttrObjectKey, k)}})
				l.lastCause = pop
				return at.Add(time.Millisecond)
			})
		for _, h := range []string{"handler-1", "handler-2"} {
			hq := append([]attribute.KeyValue{attribute.String(catalog.AttrHandler, h)}, q...)
			pop := lane(cm, "informer/listener-pop", catalog.KindGo, 0, "pop", hq,
				func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
					l.lastCause = p
					return at.Add(200 * time.Microsecond)
				})
			lane(cm, "informer/listener-run", catalog.KindGo, 0, "run", hq,
				func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
					k := key()
					sc := g.spanID(l.inst.traceID)
					g.emit(tracetest.SpanStub{Name: "OnUpdate", SpanContext: sc, Parent: p, StartTime: at, EndTime: at.Add(time.Millisecond),
						Attributes: []attribute.KeyValue{attribute.String(catalog.AttrObjectKey, k), attribute.Bool(catalog.AttrResync, false)},
						Links:      cause(pop.lastCause, k), Resource: l.inst.res})
					return at.Add(time.Millisecond)
				})
		}
	}
	for i := range 24 {
		res := soakResources[i%len(soakResources)]
		lane(cm, "controller/worker", catalog.KindUntil, time.Second, "processNextWorkItem",
			[]attribute.KeyValue{attribute.Int(catalog.AttrWorker, i/len(soakResources)+1), attribute.String(catalog.AttrEventComponent, res+"-controller")},
			func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
				g.call(l.inst, p, res+".Get", at, 2*time.Millisecond, attribute.String(catalog.AttrObjectKey, key()))
				return at.Add(3 * time.Millisecond)
			})
	}
	for _, name := range []string{"cm/leader-renew", "cm/log-flush", "cm/event-broadcast-loop", "cm/node-lifecycle", "cm/garbage-collector", "cm/resource-quota"} {
		lane(cm, name, catalog.KindUntil, 2*time.Second, "sync", nil, nil)
	}

	// The kubelets.
	for _, in := range nodes {
		for _, p := range []struct {
			name, iter string
			period     time.Duration
		}{
			{"kubelet/pleg-relist", "relist", time.Second},
			{"kubelet/volume-dswp", "populatorLoop", 100 * time.Millisecond},
			{"kubelet/volume-reconciler", "reconcile", 100 * time.Millisecond},
			{"kubelet/node-status", "syncNodeStatus", 10 * time.Second},
			{"kubelet/runtime-up", "updateRuntimeUp", 5 * time.Second},
			{"kubelet/log-flush", "Flush", 5 * time.Second},
			{"kubelet/eviction", "synchronize", 10 * time.Second},
			{"kubelet/container-gc", "Containers/GarbageCollect", time.Minute},
			{"kubelet/image-gc", "Images/GarbageCollect", 5 * time.Minute},
			{"kubelet/image-detect", "detectImages", 5 * time.Minute},
			{"kubelet/network-status", "syncNetworkStatus", 30 * time.Second},
			{"kubelet/pod-killer", "killPod", time.Second},
			{"kubelet/status-manager", "syncBatch", 10 * time.Second},
			{"kubelet/cm-ensure-state", "ensureState", time.Minute},
			{"kubelet/fs-volume-stats", "updateCachedPodVolumeStats", time.Minute},
		} {
			lane(in, p.name, catalog.KindUntil, p.period, p.iter, []attribute.KeyValue{attribute.String(catalog.AttrNode, in.id)},
				func(g *soakGen, l *soakLane, parent trace.SpanContext, at time.Time) time.Time {
					if p.name == "kubelet/node-status" {
						g.call(l.inst, parent, "nodes.Get", at, 3*time.Millisecond, attribute.String(catalog.AttrObjectKey, in.id))
						g.call(l.inst, parent, "nodes.UpdateStatus", at.Add(3*time.Millisecond), 4*time.Millisecond, attribute.String(catalog.AttrObjectKey, in.id))
					}
					return at.Add(10 * time.Millisecond)
				})
		}
		lane(in, "kubelet/main-loop", catalog.KindUntil, 0, "syncLoopIteration", nil, nil)
		for _, src := range []string{"file", "http", "api"} {
			lane(in, "kubelet/config-mux", catalog.KindUntil, 0, "merge", []attribute.KeyValue{attribute.String(catalog.AttrPodSource, src)}, nil)
		}
		for i := range 5 {
			k := fmt.Sprintf("default/web-%d", i)
			lane(in, "kubelet/pod-worker", catalog.KindGo, 0, "syncPod", []attribute.KeyValue{attribute.String(catalog.AttrObjectKey, k)},
				func(g *soakGen, l *soakLane, p trace.SpanContext, at time.Time) time.Time {
					g.call(l.inst, p, "pods.Get", at, 2*time.Millisecond, attribute.String(catalog.AttrObjectKey, k))
					g.call(l.inst, p, "pods.UpdateStatus", at.Add(5*time.Millisecond), 3*time.Millisecond, attribute.String(catalog.AttrObjectKey, k))
					return at.Add(10 * time.Millisecond)
				})
			lane(in, "kubelet/probe-worker", catalog.KindGo, 10*time.Second, "probe",
				[]attribute.KeyValue{attribute.String(catalog.AttrObjectKey, k), attribute.String(catalog.AttrContainer, "web"), attribute.String(catalog.AttrProbeType, "readiness")}, nil)
		}
	}

	// Run the loops in simulated time until the recording is big enough.
	h := laneHeap(lanes)
	heap.Init(&h)
	last := g.origin
	lifetimes := len(lanes) + 4 // the lifetime spans and the instances' root spans, written at the end
	for g.spans+lifetimes < n && g.err == nil {
		l := h[0]
		at := l.next
		last = at
		l.n++
		if l.period > 0 {
			l.next = at.Add(l.period)
		} else {
			l.next = at.Add(time.Duration(g.rng.ExpFloat64() * float64(2*time.Second)))
		}
		heap.Fix(&h, 0)
		if l.inst == scenario {
			sc := g.call(scenario, scenario.run, "action/update", at, 0, attribute.String(catalog.AttrObjectKey, key()),
				attribute.String(catalog.AttrAction, "update"))
			l.lastCause = sc
			continue
		}
		// Loops of 1s or less record iterations 1-3, every tenth, and the
		// ones with work to do (here: one in twenty).
		if l.period > 0 && l.period <= time.Second && l.n > 3 && l.n%10 != 0 && g.rng.IntN(20) != 0 {
			l.skipped++
			continue
		}
		attrs := append([]attribute.KeyValue{attribute.String(catalog.AttrGoroutineName, l.name), attribute.Int64(catalog.AttrIteration, l.n)}, l.quals...)
		if l.skipped > 0 {
			attrs = append(attrs, attribute.Int64(catalog.AttrSkipped, l.skipped))
			l.skipped = 0
		}
		it := g.spanID(l.inst.traceID)
		end := at.Add(500 * time.Microsecond)
		if l.calls != nil {
			end = l.calls(g, l, it, at)
		}
		g.emit(tracetest.SpanStub{Name: l.iter, SpanContext: it, Parent: l.self, StartTime: at, EndTime: end, Attributes: attrs, Resource: l.inst.res})
	}
	stop := last.Add(time.Second)
	for _, l := range lanes {
		if l.inst == scenario {
			continue
		}
		attrs := append([]attribute.KeyValue{
			attribute.String(catalog.AttrGoroutineName, l.name),
			attribute.String(catalog.AttrGoroutineKind, l.kind),
			attribute.String(catalog.AttrCodeFunction, "k8s.io/kubernetes/pkg/"+l.name),
			attribute.String(catalog.AttrCodeFile, "pkg/"+l.name+".go"),
			attribute.String(catalog.AttrArticle, "kubelet-goroutines.zh.txt#3"),
		}, l.quals...)
		if l.period > 0 {
			attrs = append(attrs, attribute.Float64(catalog.AttrGoroutinePeriod, l.period.Seconds()))
		}
		g.emit(tracetest.SpanStub{Name: l.name, SpanContext: l.self, Parent: l.inst.run, StartTime: l.start, EndTime: stop, Attributes: attrs, Resource: l.inst.res})
	}
	for _, in := range append([]*soakInstance{scenario, cm}, nodes...) {
		g.emit(tracetest.SpanStub{Name: "run", SpanContext: in.run, StartTime: g.origin, EndTime: stop.Add(time.Second), Resource: in.res})
	}
	g.flush()
	if g.err == nil {
		g.err = g.rec.Shutdown(context.Background())
	}
	if err := bw.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	if err := f.Sync(); err != nil && g.err == nil { // no write-back while the benchmark reads it
		g.err = err
	}
	if err := f.Close(); err != nil && g.err == nil {
		g.err = err
	}
	if g.err != nil {
		tb.Fatalf("writing the soak recording: %v", g.err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return g.spans, fi.Size()
}
