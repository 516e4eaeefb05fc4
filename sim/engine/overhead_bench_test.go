package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/kubeloom/kubeloom/sim/tracing"
)

// BenchmarkScale100TracingOverhead is what tracing costs a whole run: the
// 100-node scale scenario (scaleScenario: 100 kubelets, a controller-
// manager, 3,000 pods, 10 simulated minutes) at speed 10 in real time,
// once with every instance's tracer a noop one (which counts the spans
// started) and once recorded to a file as `kubeloom run` records it.
//
// A run in real time does not do the same work twice: how far loops fall
// behind, and so how many iterations and retries there are, depends on the
// machine's load. So besides the process CPU of each run and their ratio
// (cpu-ratio, recorded ÷ noop) it reports the ratio of their CPU per span
// (cpu-ratio/span: the noop run's spans counted as it starts them), which
// takes out the difference in work, and the tracing CPU per span
// (tracing-cpu-µs/span: the recorded run's CPU per span minus the noop
// run's). cpu-µs/span is the recorded run's whole CPU over its spans, the
// simulation included. Each op is both runs, about two minutes:
// `make bench` runs it once on a line of its own; alone:
//
//	go test ./sim/engine -run '^$' -bench Scale100TracingOverhead -benchtime 1x
func BenchmarkScale100TracingOverhead(b *testing.B) {
	const nodes, d, speed = 100, 10 * time.Minute, 10
	sc := scaleScenario(b, nodes, d)
	noopTracer := noop.NewTracerProvider().Tracer(tracing.ScopeName)
	run := func(noop bool) (cpu time.Duration, spans int64) {
		f, err := os.Create(filepath.Join(b.TempDir(), "scale.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		o := Options{Scenario: sc, Recording: f, Speed: speed}
		var started atomic.Int64
		if noop {
			o.tracer = countingTracer{noopTracer, &started}
		}
		runtime.GC() // the run before's garbage is not this one's
		cpu0, wall0 := cpuTime(b), time.Now()
		sum, err := Run(context.Background(), o)
		wall, cpu := time.Since(wall0), cpuTime(b)-cpu0
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.Fatal(err)
		}
		if len(sum.Leftovers) > 0 {
			b.Fatalf("leftovers: %v", sum.Leftovers)
		}
		spans = sum.Spans
		if noop {
			if spans != 0 {
				b.Fatalf("%d spans recorded with the noop tracer", spans)
			}
			spans = started.Load()
		}
		if spans == 0 {
			b.Fatal("no spans")
		}
		b.Logf("noop tracer %-5v: %.1fs wall, %.1fs CPU, %d spans, %.1f µs CPU a span", noop, wall.Seconds(), cpu.Seconds(), spans, float64(cpu.Microseconds())/float64(spans))
		return cpu, spans
	}
	for range b.N {
		noopCPU, noopSpans := run(true)
		recCPU, spans := run(false)
		noopPer := float64(noopCPU.Microseconds()) / float64(noopSpans)
		recPer := float64(recCPU.Microseconds()) / float64(spans)
		b.ReportMetric(noopCPU.Seconds(), "noop-cpu-s")
		b.ReportMetric(recCPU.Seconds(), "recorded-cpu-s")
		b.ReportMetric(recCPU.Seconds()/noopCPU.Seconds(), "cpu-ratio")
		b.ReportMetric(recPer/noopPer, "cpu-ratio/span")
		b.ReportMetric(float64(spans), "spans")
		b.ReportMetric(float64(noopSpans), "noop-spans")
		b.ReportMetric(recPer, "cpu-µs/span")
		b.ReportMetric(recPer-noopPer, "tracing-cpu-µs/span")
	}
}

// countingTracer is a tracer that counts the spans started through it.
type countingTracer struct {
	trace.Tracer
	n *atomic.Int64
}

func (t countingTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	t.n.Add(1)
	return t.Tracer.Start(ctx, name, opts...)
}
