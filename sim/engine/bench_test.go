package engine

import (
	"context"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
)

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkInformerEras is the cost of simulating the informer-eras lesson
// (30 simulated seconds, two informers side by side, recorded) at speed
// 1000: cpu-ms/run is the process CPU of one whole run, much of it
// building the two fake clientsets (client-go's field-managed tracker).
func BenchmarkInformerEras(b *testing.B) {
	sc, err := scenarios.Builtin("informer-eras")
	if err != nil {
		b.Fatal(err)
	}
	var spans int64
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	for range b.N {
		sum, err := Run(context.Background(), Options{Scenario: sc, Recording: io.Discard, Speed: 1000})
		if err != nil {
			b.Fatal(err)
		}
		if len(sum.Leftovers) > 0 {
			b.Fatalf("leftovers: %v", sum.Leftovers)
		}
		spans += sum.Spans
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/run")
	b.ReportMetric(float64(spans)/float64(b.N), "spans/run")
}
