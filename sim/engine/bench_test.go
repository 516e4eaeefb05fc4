package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
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
// controller-manager, every controller) in real time at several speeds and
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

// nodesScenario is N kubelets, each running one pod, for the given
// simulated duration.
func nodesScenario(b *testing.B, n int, d time.Duration) *scenarios.Scenario {
	var sb strings.Builder
	fmt.Fprintf(&sb, "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: nodes-%d}\nspec:\n  duration: %s\n  kubelets: {count: %d}\n  objects:\n", n, d, n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "    - {apiVersion: v1, kind: Pod, metadata: {name: web-%d}, spec: {nodeName: node-%d, containers: [{name: web, image: \"nginx:1.11\"}]}}\n", i, i)
	}
	sc, err := scenarios.Parse("nodes.yaml", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkKubeletNodes runs 1, 10 and 50 kubelets (one pod each) for 2
// simulated minutes at speed 60 in real time, recorded, and reports the
// process CPU per simulated node-minute (it should stay flat as nodes are
// added: the cost grows linearly), spans per node-minute and the peak RSS
// of the process so far (run one size alone, e.g. -bench 'KubeletNodes/nodes=50',
// for that size's own peak). Run with -benchtime=1x.
func BenchmarkKubeletNodes(b *testing.B) {
	const d = 2 * time.Minute
	for _, n := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			sc := nodesScenario(b, n, d)
			var cpu time.Duration
			var spans int64
			for range b.N {
				cpu0 := cpuTime(b)
				sum, err := Run(context.Background(), Options{Scenario: sc, Recording: io.Discard, Speed: 60})
				cpu += cpuTime(b) - cpu0
				if err != nil {
					b.Fatal(err)
				}
				if len(sum.Leftovers) > 0 {
					b.Fatalf("leftovers: %v", sum.Leftovers)
				}
				spans += sum.Spans
			}
			nodeMinutes := float64(b.N) * float64(n) * d.Minutes()
			var ru syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			b.ReportMetric(float64(cpu.Microseconds())/1000/nodeMinutes, "cpu-ms/node-min")
			b.ReportMetric(float64(spans)/nodeMinutes, "spans/node-min")
			b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MiB")
		})
	}
}
