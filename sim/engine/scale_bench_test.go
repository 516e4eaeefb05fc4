package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// scaleScenario is the shape of issue 15's scale target: n kubelets and
// one controller-manager, and at 10s a Deployment of 30 pods per node,
// run for d of simulated time.
func scaleScenario(b *testing.B, n int, d time.Duration) *scenarios.Scenario {
	yaml := fmt.Sprintf(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: scale-%d}
spec:
  duration: %s
  seed: 1
  era: classic
  controllerManager: {replicas: 1}
  kubelets: {count: %d}
  actions:
    - at: 10s
      create:
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: %d
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
                - {name: web, image: "nginx:1.11", ports: [{containerPort: 80}]}
`, n, d, n, 30*n)
	sc, err := scenarios.Parse(fmt.Sprintf("scale-%d.yaml", n), []byte(yaml))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

var scaleSpeed = flag.Float64("scale-speed", 0, "BenchmarkClusterScale: the speed of every size (0: 30, 10 and 5 for 10, 100 and 1,000 nodes)")

// BenchmarkClusterScale runs n kubelets + one controller-manager with 30
// pods per node for 10 simulated minutes in real time, recorded to a file,
// and reports what issue 15 asks of it: wall time, process CPU per
// simulated node-minute (flat as nodes are added if the cost is linear),
// spans, the process's peak RSS, and the worst deviation of any periodic
// loop from its period (the speed is one the loops keep within 5%; see
// docs/design.md, "Scale"). Run one size at a time for its own peak RSS:
//
//	go test ./sim/engine -run '^$' -bench 'ClusterScale/nodes=1000$' -benchtime 1x
//
// -scale-speed runs every size at another speed, to find the highest one
// at which the loops keep their periods:
//
//	go test ./sim/engine -run '^$' -bench 'ClusterScale/nodes=1000$' -benchtime 1x -args -scale-speed 4
func BenchmarkClusterScale(b *testing.B) {
	const d = 10 * time.Minute
	for _, size := range []struct {
		nodes int
		speed float64
	}{{10, 30}, {100, 10}, {1000, 5}} {
		if *scaleSpeed > 0 {
			size.speed = *scaleSpeed
		}
		b.Run(fmt.Sprintf("nodes=%d", size.nodes), func(b *testing.B) {
			sc := scaleScenario(b, size.nodes, d)
			for range b.N {
				// Compressed, as docs/scale.md advises at this size: 1,000
				// nodes record about 9 million spans, 14 GB of plain text.
				path := filepath.Join(b.TempDir(), "scale.jsonl.zst")
				f, err := os.Create(path)
				if err != nil {
					b.Fatal(err)
				}
				zw := traces.NewCompressedWriter(f)
				restoreGC := TuneGC() // as kubeloom run
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				alloc0 := ms.TotalAlloc
				cpu0, wall0 := cpuTime(b), time.Now()
				sum, err := Run(context.Background(), Options{Scenario: sc, Recording: zw, Speed: size.speed})
				wall, cpu := time.Since(wall0), cpuTime(b)-cpu0
				runtime.ReadMemStats(&ms)
				alloc := ms.TotalAlloc - alloc0
				restoreGC()
				if cerr := errors.Join(zw.Close(), f.Close()); err == nil {
					err = cerr
				}
				if err != nil {
					b.Fatal(err)
				}
				if len(sum.Leftovers) > 0 {
					b.Fatalf("leftovers: %v", sum.Leftovers)
				}
				var ru syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
				loops, err := loopPeriodsOf(path)
				if err != nil {
					b.Fatal(err)
				}
				dev, lane := loops.worst()
				nodeMinutes := float64(size.nodes) * d.Minutes()
				b.ReportMetric(wall.Seconds(), "wall-s")
				b.ReportMetric(float64(cpu.Microseconds())/1000/nodeMinutes, "cpu-ms/node-min")
				b.ReportMetric(float64(alloc)/1e6/nodeMinutes, "alloc-MB/node-min")
				b.ReportMetric(float64(sum.Spans), "spans")
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MiB")
				b.ReportMetric(dev*100, "max-period-dev-%")
				b.Logf("%d nodes at speed %g: %.1fs wall, %.1fs CPU, %d spans; worst loop %s", size.nodes, size.speed, wall.Seconds(), cpu.Seconds(), sum.Spans, lane)
			}
		})
	}
}

// loopPeriods is what a pass over a recording learns of its periodic
// loops: each loop goroutine's period, and the first and last iteration
// of each span that has iterations. It reads the recording line by line
// (a 1,000-node recording has millions of spans: traces.Read would hold
// them all), picking the few fields it needs out of the recorder's fixed
// stdouttrace layout by position.
type loopPeriods struct {
	loops map[string]loop      // goroutine span ID → its loop
	iters map[string]iterRange // parent span ID → its iterations
}

type loop struct {
	label  string
	period time.Duration
}

type iterRange struct {
	first, last           int64
	firstStart, lastStart time.Time
}

func loopPeriodsOf(path string) (*loopPeriods, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := traces.Decompress(f) // plain or compressed
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer text.Close()
	return readLoopPeriods(text)
}

func readLoopPeriods(r io.Reader) (*loopPeriods, error) {
	lp := &loopPeriods{loops: map[string]loop{}, iters: map[string]iterRange{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if p, ok := field(line, `{"Key":"goroutine.period_s","Value":{"Type":"FLOAT64","Value":`, '}'); ok {
			kind, _ := field(line, `{"Key":"goroutine.kind","Value":{"Type":"STRING","Value":"`, '"')
			switch string(kind) {
			case catalog.KindUntil, catalog.KindForever, catalog.KindMain:
			default:
				continue
			}
			name, _ := field(line, `{"Key":"goroutine.name","Value":{"Type":"STRING","Value":"`, '"')
			if string(name) == "cm/leader-acquire" { // jittered by design
				continue
			}
			secs, err := strconv.ParseFloat(string(p), 64)
			id := spanID(line, `"SpanContext":`)
			if err != nil || id == "" {
				return nil, fmt.Errorf("line %d: a goroutine span whose period or ID does not read", n)
			}
			inst, _ := field(line, `{"Key":"service.instance.id","Value":{"Type":"STRING","Value":"`, '"')
			lp.loops[id] = loop{label: string(inst) + " " + string(name), period: time.Duration(math.Round(secs * float64(time.Second)))}
			continue
		}
		it, ok := field(line, `{"Key":"iteration","Value":{"Type":"INT64","Value":`, '}')
		if !ok {
			continue
		}
		i, err := strconv.ParseInt(string(it), 10, 64)
		start, _ := field(line, `"StartTime":"`, '"')
		t, terr := time.Parse(time.RFC3339Nano, string(start))
		if err != nil || terr != nil {
			return nil, fmt.Errorf("line %d: an iteration whose number or start does not read", n)
		}
		parent := spanID(line, `"Parent":`)
		r, seen := lp.iters[parent]
		if !seen || i < r.first {
			r.first, r.firstStart = i, t
		}
		if !seen || i > r.last {
			r.last, r.lastStart = i, t
		}
		lp.iters[parent] = r
	}
	return lp, sc.Err()
}

// worst is the largest relative difference between a loop's period and
// the one it kept on average over at least 10 iterations (sampled-out
// iterations counted by their numbers), as periodDeviation measures a
// timeline.
func (lp *loopPeriods) worst() (worst float64, lane string) {
	for id, l := range lp.loops {
		r := lp.iters[id]
		n := r.last - r.first
		if n < 10 {
			continue
		}
		kept := r.lastStart.Sub(r.firstStart) / time.Duration(n)
		if dev := math.Abs(float64(kept-l.period)) / float64(l.period); dev > worst {
			worst, lane = dev, fmt.Sprintf("%s (%s kept, %s wanted)", l.label, kept, l.period)
		}
	}
	return worst, lane
}

// field is the bytes after prefix up to (not including) end.
func field(line []byte, prefix string, end byte) ([]byte, bool) {
	i := bytes.Index(line, []byte(prefix))
	if i < 0 {
		return nil, false
	}
	rest := line[i+len(prefix):]
	j := bytes.IndexByte(rest, end)
	if j < 0 {
		return nil, false
	}
	return rest[:j], true
}

// spanID is the SpanID of the span context that follows key.
func spanID(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	id, _ := field(line[i:], `"SpanID":"`, '"')
	return string(id)
}
