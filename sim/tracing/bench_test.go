package tracing

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
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

// benchResource is an instance's resource as sim/engine builds it.
func benchResource() []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String(catalog.AttrServiceName, "informers"),
		attribute.String(catalog.AttrServiceInstanceID, "informers"),
		attribute.String(catalog.AttrScenario, "informer-basics"),
		attribute.String(catalog.AttrEra, "classic"),
	}
}

// pipeline is one way of recording spans: its tracer, and finish, which
// flushes and shuts it down and returns the number of spans it exported.
type pipeline struct {
	tracer trace.Tracer
	finish func() int64
}

func benchFile(b *testing.B) *os.File {
	f, err := os.Create(filepath.Join(b.TempDir(), "bench.out"))
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// recorderPipeline is kubeloom's: Tracing (its collector, the Recorder)
// into a JSON Lines file.
func recorderPipeline(b *testing.B) pipeline {
	f := benchFile(b)
	tr, err := New(context.Background(), Options{Recording: f})
	if err != nil {
		b.Fatal(err)
	}
	return pipeline{Tracer(tr.Provider(benchResource()...)), func() int64 {
		if err := tr.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		return tr.Spans()
	}}
}

// sdkPipeline is the stock SDK: a provider with kubeloom's resource,
// sampler and limits, and p as its only span processor.
func sdkPipeline(b *testing.B, p sdktrace.SpanProcessor, exp *countingExporter, closeAfter func() error) pipeline {
	tp := sdktrace.NewTracerProvider(append(providerOptions(benchResource()...), sdktrace.WithSpanProcessor(p))...)
	return pipeline{Tracer(tp), func() int64 {
		if err := tp.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
		if closeAfter != nil {
			if err := closeAfter(); err != nil {
				b.Fatal(err)
			}
		}
		return exp.n.Load()
	}}
}

// blockingBatcher is the SDK's BatchSpanProcessor with its default sizes,
// blocking when its queue is full, so that no span is dropped: every span
// is paid for, as in the recording.
func blockingBatcher(exp sdktrace.SpanExporter) sdktrace.SpanProcessor {
	return sdktrace.NewBatchSpanProcessor(exp, sdktrace.WithBlocking())
}

// countingExporter counts the spans it is given and passes them on to
// next (if any).
type countingExporter struct {
	next sdktrace.SpanExporter
	n    atomic.Int64
}

func (e *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.n.Add(int64(len(spans)))
	if e.next == nil {
		return nil
	}
	return e.next.ExportSpans(ctx, spans)
}

func (e *countingExporter) Shutdown(ctx context.Context) error {
	if e.next == nil {
		return nil
	}
	return e.next.Shutdown(ctx)
}

// BenchmarkSpanCost is the cost of one kubeloom span through each way of
// recording it, side by side. The span is the one kubeloom makes most: an
// informer notification or a sync, started and ended with goroutine.Start
// and Span.End inside a simulated goroutine (the sim clock's timestamps,
// the context's scope, 3 attributes and a cause link to the span before).
// It goes through goroutine.Start rather than the SDK's tracer directly
// because that is what every span of a run pays; tracer=noop shows what
// goroutine.Start itself costs, so the SDK's share is the difference.
//
//   - tracer=noop: a tracer that records nothing.
//   - exporter=discard: the stock SDK, its blocking batch processor and an
//     exporter that discards: the floor of the SDK's own pipeline.
//   - exporter=discard,processor=collector: kubeloom's collector (its
//     span processor) in front of an exporter that discards: the floor of
//     kubeloom's pipeline, so that exporter=recorder minus this is
//     encoding and writing.
//   - exporter=recorder: kubeloom's recording, as a run makes it (Tracing:
//     the collector, the Recorder) into a JSON Lines file.
//   - exporter=stdouttrace: the SDK's batch processor and stdouttrace (as
//     --stdout prints) into a file.
//
// ns/op is the time on the instrumented goroutine; cpu-ns/span is all the
// CPU of the process per span (the batch processor's or collector's
// goroutine, encoding, writing, GC), the final flush included; B/op and
// allocs/op count every goroutine's allocations while the spans are made.
func BenchmarkSpanCost(b *testing.B) {
	for _, c := range []struct {
		name  string
		setup func(b *testing.B) pipeline
	}{
		{"tracer=noop", func(*testing.B) pipeline {
			return pipeline{noop.NewTracerProvider().Tracer(ScopeName), nil}
		}},
		{"exporter=discard", func(b *testing.B) pipeline {
			exp := &countingExporter{}
			return sdkPipeline(b, blockingBatcher(exp), exp, nil)
		}},
		{"exporter=discard,processor=collector", func(b *testing.B) pipeline {
			exp := &countingExporter{}
			return sdkPipeline(b, newCollector(exp), exp, nil)
		}},
		{"exporter=recorder", recorderPipeline},
		{"exporter=stdouttrace", func(b *testing.B) pipeline {
			f := benchFile(b)
			std, err := stdouttrace.New(stdouttrace.WithWriter(f))
			if err != nil {
				b.Fatal(err)
			}
			exp := &countingExporter{next: std}
			return sdkPipeline(b, blockingBatcher(exp), exp, f.Close)
		}},
	} {
		b.Run(c.name, func(b *testing.B) { spanCost(b, c.setup(b)) })
	}
}

func spanCost(b *testing.B, p pipeline) {
	clk, _ := clock.NewScaled(1)
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("informers", p.tracer, clk, reg)
	ctx := rt.Context(context.Background())
	done := make(chan struct{})
	attrs := trace.WithAttributes(attribute.String(catalog.AttrObjectKey, "default/web-0"),
		attribute.String("notification", "OnAdd"), attribute.Int("pending", 0))
	runtime.GC() // the garbage of the setup (or of the sub-benchmark before) is not this one's
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	rt.Go(ctx, "informer/listener-run", func(ctx context.Context) {
		defer close(done)
		var parent trace.SpanContext
		for range b.N {
			_, sp := goroutine.Start(ctx, "OnAdd", attrs, trace.WithLinks(goroutine.Cause(parent, "default/web-0")))
			parent = sp.SpanContext()
			sp.End()
		}
	})
	<-done
	b.StopTimer()
	reg.Stop(time.Second)
	var exported int64
	if p.finish != nil {
		exported = p.finish()
	}
	cpu := cpuTime(b) - cpu0
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/span")
	if p.finish != nil && exported < int64(b.N) { // b.N spans, and the goroutine's own
		b.Fatalf("exported %d spans, want at least %d", exported, b.N)
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
// reports the CPU ratio traced/noop: the worst case of a loop's overhead
// (BenchmarkScale100TracingOverhead in sim/engine is a whole run's).
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
	p := recorderPipeline(b)
	cpu0 := cpuTime(b)
	run(p.tracer)
	spans := p.finish()
	tracedCPU := cpuTime(b) - cpu0 // the final flush included
	b.StopTimer()
	if spans < int64(b.N) {
		b.Fatalf("recorded %d spans, want at least %d", spans, b.N)
	}
	b.ReportMetric(float64(noopCPU.Nanoseconds())/float64(b.N), "noop-cpu-ns/iter")
	b.ReportMetric(float64(tracedCPU.Nanoseconds())/float64(b.N), "traced-cpu-ns/iter")
	b.ReportMetric(float64(tracedCPU)/float64(noopCPU), "cpu-ratio")
}
