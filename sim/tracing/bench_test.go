package tracing

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	k8sclock "k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// cpuTime is the CPU time of the whole process so far (all goroutines:
// the instrumented one, the batch processor, the encoder, the writes).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func recordingTracer(b *testing.B) (*Tracing, trace.Tracer, func()) {
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	tr, err := New(context.Background(), Options{Recording: f})
	if err != nil {
		b.Fatal(err)
	}
	tp := tr.Provider(attribute.String(catalog.AttrServiceName, "informers"), attribute.String(catalog.AttrServiceInstanceID, "bench"))
	return tr, Tracer(tp), func() {
		if err := tr.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkSpanThroughPrimitive is the cost of one span started and ended
// with goroutine.Start (sim clock timestamps, 3 attributes, a cause link)
// inside a simulated goroutine, recorded into a JSON Lines file.
// ns/op is the time on the instrumented goroutine; cpu-ns/span is all the
// CPU the process spent per span, flush included.
func BenchmarkSpanThroughPrimitive(b *testing.B) {
	tr, tracer, shutdown := recordingTracer(b)
	clk, _ := clock.NewScaled(1)
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("bench", tracer, clk, reg)
	ctx := rt.Context(context.Background())
	done := make(chan struct{})
	var parent trace.SpanContext
	attrs := trace.WithAttributes(attribute.String(catalog.AttrObjectKey, "default/web-0"),
		attribute.String("notification", "OnAdd"), attribute.Int("pending", 0))
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	rt.Go(ctx, "informer/listener-run", func(ctx context.Context) {
		defer close(done)
		for range b.N {
			_, sp := goroutine.Start(ctx, "OnAdd", attrs, trace.WithLinks(goroutine.Cause(parent, "default/web-0")))
			parent = sp.SpanContext()
			sp.End()
		}
	})
	<-done
	b.StopTimer()
	reg.Stop(time.Second)
	shutdown()
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/span")
	if tr.Spans() < int64(b.N) {
		b.Fatalf("recorded %d spans, want at least %d", tr.Spans(), b.N)
	}
}

// work is a loop body of a realistic size (a few µs, like a relist or a
// status sync against a small cache).
func work() {
	var buf [2048]byte
	for range 4 {
		s := sha256.Sum256(buf[:])
		buf[0] = s[0]
	}
}

// BenchmarkUntilTracingOverhead runs the same `until` loop (period 0,
// every iteration recorded) with the recorder and with a noop tracer, and
// reports the CPU ratio traced/noop.
func BenchmarkUntilTracingOverhead(b *testing.B) {
	run := func(tracer trace.Tracer) time.Duration {
		clk, _ := clock.NewScaledOn(k8sclock.RealClock{}, 1)
		reg := goroutine.NewRegistry(clk)
		rt := goroutine.NewRuntime("bench", tracer, clk, reg)
		ctx, cancel := context.WithCancel(rt.Context(context.Background()))
		n := 0
		done := make(chan struct{})
		start := cpuTime(b)
		rt.Until(ctx, "informer/run", 0, func(ctx context.Context) {
			work()
			if n++; n == b.N {
				cancel()
				close(done)
			}
		})
		<-done
		reg.Stop(time.Second)
		return cpuTime(b) - start
	}
	b.ResetTimer()
	noopCPU := run(noop.NewTracerProvider().Tracer("noop"))
	tr, tracer, shutdown := recordingTracer(b)
	cpu0 := cpuTime(b)
	run(tracer)
	shutdown()
	tracedCPU := cpuTime(b) - cpu0 // the final flush included
	b.StopTimer()
	if tr.Spans() < int64(b.N) {
		b.Fatalf("recorded %d spans, want at least %d", tr.Spans(), b.N)
	}
	b.ReportMetric(float64(noopCPU.Nanoseconds())/float64(b.N), "noop-cpu-ns/iter")
	b.ReportMetric(float64(tracedCPU.Nanoseconds())/float64(b.N), "traced-cpu-ns/iter")
	b.ReportMetric(float64(tracedCPU)/float64(noopCPU), "cpu-ratio")
}

type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkSDKBaseline is the floor BenchmarkSpanThroughPrimitive is
// compared with: the same span (3 attributes, a link, explicit timestamps)
// through the bare SDK and its blocking batch processor into an exporter
// that discards. The difference is kubeloom's own cost: the sim clock, the
// context scope, its collector, and encoding and writing the JSON line.
func BenchmarkSDKBaseline(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{},
		sdktrace.WithBlocking(), sdktrace.WithMaxQueueSize(8192), sdktrace.WithMaxExportBatchSize(1024)))
	tracer := tp.Tracer("baseline")
	attrs := trace.WithAttributes(attribute.String(catalog.AttrObjectKey, "default/web-0"),
		attribute.String("notification", "OnAdd"), attribute.Int("pending", 0))
	var parent trace.SpanContext
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for range b.N {
		_, sp := tracer.Start(ctx, "OnAdd", attrs, trace.WithTimestamp(time.Now()),
			trace.WithLinks(goroutine.Cause(parent, "default/web-0")))
		parent = sp.SpanContext()
		sp.End(trace.WithTimestamp(time.Now()))
	}
	b.StopTimer()
	if err := tp.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/span")
}
