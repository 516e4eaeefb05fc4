package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/traces"
)

// A run as a user runs it: the built binary, `kubeloom run NAME --out FILE`,
// in a process of its own, measured from outside (wall time, and the
// child's CPU time and peak memory from the kernel). These are the numbers
// docs/design.md ("Time", "Scale") reports.

// processRun is one finished `kubeloom run` process.
type processRun struct {
	wall    time.Duration
	cpu     time.Duration // user + system, every thread
	maxRSS  int64         // bytes
	spans   int64         // from the summary's first line
	stderr  string
	atMark  time.Duration // CPU when the marker action's progress line came (0 without one)
	exitErr error
}

// summaryLine reads the run summary's first line: "finished NAME: 5m0s
// simulated in 112ms real (…), 1 actions, 3948 spans".
var summaryLine = regexp.MustCompile(`(?m)^(finished|interrupted) \S+: .*, (\d+) spans$`)

// runProcess runs bin with args; when a line of its error stream contains
// mark, it reads the child's CPU time so far (Linux: /proc/PID/stat).
func runProcess(tb testing.TB, bin string, mark string, args ...string) processRun {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	var r processRun
	var text strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		text.WriteString(line + "\n")
		if mark != "" && r.atMark == 0 && strings.Contains(line, mark) {
			r.atMark = procCPU(tb, cmd.Process.Pid)
		}
	}
	r.exitErr = cmd.Wait()
	r.wall = time.Since(start)
	r.stderr = text.String()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	r.maxRSS = ru.Maxrss * 1024
	if m := summaryLine.FindStringSubmatch(r.stderr); m != nil {
		r.spans, _ = strconv.ParseInt(m[2], 10, 64)
	}
	return r
}

// procCPU is a running process's CPU time (utime + stime, in clock ticks
// of 10 ms, fields 14 and 15 of /proc/PID/stat).
func procCPU(tb testing.TB, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Skipf("the CPU time of a running process: %v (Linux only)", err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:])) // after "pid (comm) "
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// BenchmarkRun runs every built-in as a user does and reports what issue
// 29 asks of a run in virtual time: wall-s, cpu-s, x-real (simulated
// seconds per real second: at least 1,000 for every built-in of three
// simulated minutes or more but cluster-scale; the three short ones end
// within 0.2 s) and wall/cpu (wall time over CPU time per core used: at
// most 1.3, the run waits on nothing but the CPU).
//
//	go test ./cmd/kubeloom -run '^$' -bench 'BenchmarkRun$' -benchtime 5x
func BenchmarkRun(b *testing.B) {
	bin := builtBinary(b)
	for _, b0 := range scenarios.Builtins() {
		name := b0.Name
		sc, err := scenarios.Builtin(name)
		if err != nil {
			b.Fatal(err)
		}
		cores := runCores(0, sc)
		b.Run(name, func(b *testing.B) {
			rec := filepath.Join(b.TempDir(), name+".jsonl")
			var wall, cpu time.Duration
			for range b.N {
				r := runProcess(b, bin, "", "run", name, "-q", "--out", rec)
				if r.exitErr != nil {
					b.Fatalf("%v\n%s", r.exitErr, r.stderr)
				}
				wall += r.wall
				cpu += r.cpu
			}
			n := time.Duration(b.N)
			wall, cpu = wall/n, cpu/n
			b.ReportMetric(wall.Seconds(), "wall-s")
			b.ReportMetric(cpu.Seconds(), "cpu-s")
			b.ReportMetric(sc.Spec.Duration.Seconds()/wall.Seconds(), "x-real")
			b.ReportMetric(wall.Seconds()/(cpu.Seconds()/float64(cores)), "wall/cpu")
		})
	}
}

// clusterScenario writes the scale target of issues 15 and 29: n kubelets
// and one controller-manager, a Deployment of 30 pods per node at 10s, and
// at burstEnd a ConfigMap (a marker: its progress line is when the pod
// burst is counted as over) for 10 simulated minutes.
func clusterScenario(tb testing.TB, n int) string {
	yaml := fmt.Sprintf(`apiVersion: kubeloom.dev/v1
kind: Scenario
metadata: {name: scale-%d}
spec:
  duration: 10m
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
    - at: %s
      create: {apiVersion: v1, kind: ConfigMap, metadata: {name: steady-state}}
`, n, n, 30*n, burstEnd)
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("scale-%d.yaml", n))
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// burstEnd is when a cluster scenario's pod burst is counted as over: the
// 30,000 pods of 1,000 nodes run well before.
const burstEnd = 3 * time.Minute

// BenchmarkClusterScale runs n kubelets and a controller-manager with 30
// pods per node for 10 simulated minutes as a user does (the binary, in
// virtual time, its default cores: every core from 11 kubelets), recorded
// compressed, and reports wall time, process CPU per simulated node-minute
// in the pod burst (the first three minutes) and in the steady state (the
// other seven: flat from 10 to 1,000 nodes if a node's cost does not grow
// with the cluster), spans, peak RSS, and the worst deviation of any
// periodic loop from its period. One size at a time, for its own peak RSS:
//
//	go test ./cmd/kubeloom -run '^$' -bench 'ClusterScale/nodes=1000$' -benchtime 1x
func BenchmarkClusterScale(b *testing.B) {
	bin := builtBinary(b)
	for _, nodes := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			sc := clusterScenario(b, nodes)
			for range b.N {
				rec := filepath.Join(b.TempDir(), "scale.jsonl.zst")
				r := runProcess(b, bin, "create at "+burstEnd.String(), "run", sc, "--out", rec)
				if r.exitErr != nil || strings.Contains(r.stderr, "LEFTOVER") {
					b.Fatalf("%v\n%s", r.exitErr, r.stderr)
				}
				if r.atMark == 0 {
					b.Fatalf("no progress line for the marker at %s:\n%s", burstEnd, r.stderr)
				}
				loops, err := loopPeriodsOf(rec)
				if err != nil {
					b.Fatal(err)
				}
				dev, lane := loops.worst()
				perNodeMin := func(cpu time.Duration, d time.Duration) float64 {
					return float64(cpu.Microseconds()) / 1000 / (float64(nodes) * d.Minutes())
				}
				b.ReportMetric(r.wall.Seconds(), "wall-s")
				b.ReportMetric(r.cpu.Seconds(), "cpu-s")
				b.ReportMetric(perNodeMin(r.atMark, burstEnd), "burst-cpu-ms/node-min")
				b.ReportMetric(perNodeMin(r.cpu-r.atMark, 10*time.Minute-burstEnd), "steady-cpu-ms/node-min")
				b.ReportMetric(float64(r.spans), "spans")
				b.ReportMetric(float64(r.maxRSS)/(1<<20), "peak-rss-MiB")
				b.ReportMetric(dev*100, "max-period-dev-%")
				b.Logf("%d nodes: %.1fs wall, %.1fs CPU (%.1fs in the burst), %d spans, peak RSS %d MiB; worst loop %s",
					nodes, r.wall.Seconds(), r.cpu.Seconds(), r.atMark.Seconds(), r.spans, r.maxRSS>>20, lane)
			}
		})
	}
}

// BenchmarkInterruptClusterScale is Ctrl-C in the busiest moment of the
// largest run: 1,000 kubelets, SIGINT as the 30,000 pods are created (just
// after the Deployment at 10s). It reports how long the process took to
// end after the signal (stop-s: within 2 s), and checks exit status 130 and
// a recording that reads to its last line, plain and compressed.
func BenchmarkInterruptClusterScale(b *testing.B) {
	bin := builtBinary(b)
	sc := clusterScenario(b, 1000)
	for _, name := range []string{"cut.jsonl", "cut.jsonl.zst"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				rec := filepath.Join(b.TempDir(), name)
				cmd := exec.Command(bin, "run", sc, "--out", rec)
				stderr, err := cmd.StderrPipe()
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				var seen strings.Builder
				var signalled time.Time
				lines := bufio.NewScanner(stderr)
				for lines.Scan() {
					seen.WriteString(lines.Text() + "\n")
					if signalled.IsZero() && strings.Contains(lines.Text(), "create at 10s") {
						time.Sleep(time.Second) // into the burst
						cmd.Process.Signal(syscall.SIGINT)
						signalled = time.Now()
					}
				}
				err = cmd.Wait()
				stop := time.Since(signalled)
				var exit *exec.ExitError
				if signalled.IsZero() || !errors.As(err, &exit) || exit.ExitCode() != 130 {
					b.Fatalf("exit %v, want status 130 after SIGINT\n%s", err, seen.String())
				}
				spans, err := traces.ReadFile(rec)
				if err != nil || len(spans) == 0 {
					b.Fatalf("the recording after Ctrl-C: %d spans, %v", len(spans), err)
				}
				b.ReportMetric(stop.Seconds(), "stop-s")
				b.ReportMetric(float64(len(spans)), "spans")
			}
		})
	}
}
