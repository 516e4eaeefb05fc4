package engine

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// periodDeviation is the worst relative difference, over every periodic
// lane of a recording that ran at least 10 iterations, between a loop's
// period and the one it kept on average (first to last iteration start,
// sampled-out iterations counted). The acquire loop is left out: its
// waits are jittered by design.
// Only loops of at least minPeriod count.
func periodDeviation(tl *timeline.Timeline, minPeriod time.Duration) (worst float64, lane string) {
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			if l.Period <= 0 || l.Period < minPeriod || l.Goroutine == "cm/leader-acquire" || len(l.Iterations) < 2 {
				continue
			}
			switch l.Kind {
			case catalog.KindUntil, catalog.KindForever, catalog.KindMain:
			default:
				continue
			}
			first, last := l.Iterations[0], l.Iterations[len(l.Iterations)-1]
			n := last.Iteration - first.Iteration
			if n < 10 {
				continue
			}
			kept := last.Start.Sub(first.Start) / time.Duration(n)
			if dev := math.Abs(float64(kept-l.Period)) / float64(l.Period); dev > worst {
				worst, lane = dev, fmt.Sprintf("%s %s (%s kept, %s wanted)", in.ID, l.Label, kept, l.Period)
			}
		}
	}
	return worst, lane
}

// BenchmarkCMStartupSpeeds runs cm-startup (5 simulated minutes, one
// controller-manager, every controller) in live mode at several speeds and
// reports wall and CPU time, spans, and how far the loops' periods drift
// from Kubernetes' (max-period-dev-%, and for loops of 1s or more alone):
// the highest speed that keeps it under 5% is the one docs/design.md
// reports. Run with -benchtime=1x.
func BenchmarkCMStartupSpeeds(b *testing.B) {
	sc, err := scenarios.Builtin("cm-startup")
	if err != nil {
		b.Fatal(err)
	}
	for _, speed := range []float64{30, 60, 80, 100, 120, 300, 600} {
		b.Run(fmt.Sprintf("speed=%g", speed), func(b *testing.B) {
			for range b.N {
				var rec bytes.Buffer
				cpu0, wall0 := cpuTime(b), time.Now()
				sum, err := Run(context.Background(), Options{Scenario: sc, Recording: &rec, Speed: speed})
				wall, cpu := time.Since(wall0), cpuTime(b)-cpu0
				if err != nil {
					b.Fatal(err)
				}
				if len(sum.Leftovers) > 0 {
					b.Fatalf("leftovers: %v", sum.Leftovers)
				}
				spans, err := traces.Read(&rec, "cm-startup.jsonl")
				if err != nil {
					b.Fatal(err)
				}
				tl := timeline.Build(spans)
				dev, lane := periodDeviation(tl, 0)
				slow, _ := periodDeviation(tl, time.Second)
				b.ReportMetric(wall.Seconds(), "wall-s")
				b.ReportMetric(cpu.Seconds(), "cpu-s")
				b.ReportMetric(float64(sum.Spans), "spans")
				b.ReportMetric(dev*100, "max-period-dev-%")
				b.ReportMetric(slow*100, "max-period-dev-1s+-%")
				b.Logf("speed %g: worst lane %s", speed, lane)
			}
		})
	}
}
