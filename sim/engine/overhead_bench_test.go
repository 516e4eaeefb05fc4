package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkScale100TracingOverhead is what tracing costs a whole run: the
// 100-node scale scenario (scaleScenario: 100 kubelets, a controller-
// manager, 3,000 pods, 10 simulated minutes) at speed 10 in real time,
// once with every instance's tracer a noop one and once recorded to a
// file as `kubeloom run` records it. It reports the process CPU of each,
// their ratio (cpu-ratio, recorded ÷ noop), the recorded run's spans, and
// the tracing CPU per span: the difference of the two runs over the spans
// (tracing-cpu-µs/span; cpu-µs/span is the recorded run's whole CPU over
// its spans, the simulation included). Each op is both runs, about two
// minutes, so `-bench .` runs it once; alone:
//
//	go test ./sim/engine -run '^$' -bench Scale100TracingOverhead -benchtime 1x
func BenchmarkScale100TracingOverhead(b *testing.B) {
	const nodes, d, speed = 100, 10 * time.Minute, 10
	sc := scaleScenario(b, nodes, d)
	run := func(noop bool) (cpu time.Duration, spans int64) {
		f, err := os.Create(filepath.Join(b.TempDir(), "scale.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC() // the run before's garbage is not this one's
		cpu0, wall0 := cpuTime(b), time.Now()
		sum, err := Run(context.Background(), Options{Scenario: sc, Recording: f, Speed: speed, noopTracer: noop})
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
		if noop != (sum.Spans == 0) {
			b.Fatalf("noop tracer %v, %d spans recorded", noop, sum.Spans)
		}
		b.Logf("noop tracer %-5v: %.1fs wall, %.1fs CPU, %d spans", noop, wall.Seconds(), cpu.Seconds(), sum.Spans)
		return cpu, sum.Spans
	}
	for range b.N {
		noopCPU, _ := run(true)
		recCPU, spans := run(false)
		b.ReportMetric(noopCPU.Seconds(), "noop-cpu-s")
		b.ReportMetric(recCPU.Seconds(), "recorded-cpu-s")
		b.ReportMetric(recCPU.Seconds()/noopCPU.Seconds(), "cpu-ratio")
		b.ReportMetric(float64(spans), "spans")
		b.ReportMetric(float64(recCPU.Microseconds())/float64(spans), "cpu-µs/span")
		b.ReportMetric(float64((recCPU-noopCPU).Microseconds())/float64(spans), "tracing-cpu-µs/span")
	}
}
