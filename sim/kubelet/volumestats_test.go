package kubelet

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// TestVolumeStatCalculatorPerPod holds the resource analyzer to
// fs_resource_analyzer.go's updateCachedPodVolumeStats and the calculators
// to volume_stat_calculator.go's StartOnce/StopOnce: one
// kubelet/volume-stat-calculator per pod, started by the analyzer's first
// iteration that sees the pod, stopped by the first that no longer does,
// each waiting 1m × (1 + rand) between measurements, and a pod's usage
// cached only when it has mounted volumes.
func TestVolumeStatCalculatorPerPod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		r := h.runtime(0, containerruntime.PauseImage, "busybox:1.25")
		k := h.kubelet(r)
		pod := func(name string) *corev1.Pod {
			return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)}}
		}
		a, b, c := pod("a"), pod("b"), pod("c")
		k.pods.update(a)
		k.pods.update(b)
		runs(t, r, string(a.UID), "app", 1, true)
		runs(t, r, string(b.UID), "app", 1, true)
		// a has a mounted volume; b has none (ListVolumesForPod: not found).
		k.volumes.mounted[a.UID] = map[string]bool{"data": true}

		start := h.clk.Now()
		k.analyzer.start(h.ctx)
		h.clk.Sleep(10 * time.Second)
		k.pods.update(c) // seen by the analyzer's next iteration, at 1m
		runs(t, r, string(c.UID), "app", 1, true)
		h.clk.Sleep(60 * time.Second)
		k.pods.remove(b) // at 1m10s: its calculator stops at the iteration of 2m
		h.clk.Sleep(10*time.Minute - 70*time.Second)
		wantA := uint64(0)
		for _, ps := range r.Stats() {
			if ps.PodUID == string(a.UID) {
				wantA = ps.Containers[0].RootfsUsedBytes / 4
			}
		}
		if got := k.analyzer.podVolumeUsed(a.UID); got != wantA || got == 0 {
			t.Errorf("pod a's volume usage %d, want a quarter of its writable layer, %d", got, wantA)
		}
		if got := k.analyzer.podVolumeUsed(c.UID); got != 0 {
			t.Errorf("pod c, without mounted volumes, has volume usage %d: its calculator must store nothing", got)
		}
		// The goroutines end, and their lifetimes are exported, before the
		// tracer provider shuts down (which empties the exporter).
		if left := h.reg.Stop(10 * time.Second); len(left) != 0 {
			t.Errorf("goroutines left after stop: %v", left)
		}
		defer h.stop()

		spans := h.exp.GetSpans()
		analyzer := map[string]bool{} // the analyzer's iterations, by span ID
		for _, s := range h.spansNamed("updateCachedPodVolumeStats") {
			analyzer[s.SpanContext.SpanID().String()] = true
		}
		lifetimes := map[string]tracetest.SpanStub{} // pod UID → its calculator's lifetime
		for _, s := range h.spansNamed("kubelet/volume-stat-calculator") {
			uid, _ := attr(s, "k8s.pod.uid").(string)
			if _, dup := lifetimes[uid]; dup {
				t.Errorf("pod %s got a second calculator at %s: want one per pod", uid, s.StartTime.Sub(start))
			}
			lifetimes[uid] = s
			if !analyzer[s.Parent.SpanID().String()] {
				t.Errorf("pod %s's calculator was not started by an updateCachedPodVolumeStats iteration", uid)
			}
		}
		if len(lifetimes) != 3 {
			t.Fatalf("%d calculators, want 3 (pods a, b, c)", len(lifetimes))
		}
		for _, w := range []struct {
			pod         *corev1.Pod
			start, stop time.Duration // stop 0: runs to the end
		}{
			{a, 0, 0},
			{b, 0, 2 * time.Minute},
			{c, time.Minute, 0},
		} {
			s := lifetimes[string(w.pod.UID)]
			if got := s.StartTime.Sub(start); got != w.start {
				t.Errorf("pod %s's calculator started at %s, want %s", w.pod.Name, got, w.start)
			}
			got := s.EndTime.Sub(start)
			if w.stop != 0 && got != w.stop {
				t.Errorf("pod %s's calculator stopped at %s, want %s (the analyzer's first iteration without the pod)", w.pod.Name, got, w.stop)
			}
			if w.stop == 0 && got < 10*time.Minute {
				t.Errorf("pod %s's calculator stopped at %s, while its pod was still there", w.pod.Name, got)
			}
		}

		// Each calculator measures at once, then waits 1m × (1 + rand) after
		// each measurement (JitterUntil(…, 1m, 1.0, …)); the waits differ.
		waits := map[time.Duration]bool{}
		for uid, l := range lifetimes {
			var iters []tracetest.SpanStub
			for _, s := range spans {
				if s.Name == "calcAndStoreStats" && s.Parent.SpanID() == l.SpanContext.SpanID() {
					iters = append(iters, s)
				}
			}
			if len(iters) < 2 {
				t.Errorf("pod %s's calculator measured %d times, want at least 2", uid, len(iters))
				continue
			}
			if !iters[0].StartTime.Equal(l.StartTime) {
				t.Errorf("pod %s's calculator first measured %s after it started, want at once", uid, iters[0].StartTime.Sub(l.StartTime))
			}
			for i := 1; i < len(iters); i++ {
				d := iters[i].StartTime.Sub(iters[i-1].EndTime)
				if d < time.Minute || d >= 2*time.Minute {
					t.Errorf("pod %s's calculator waited %s, want within [1m, 2m)", uid, d)
				}
				waits[d] = true
			}
			if want := map[string]int64{string(a.UID): 1}[uid]; attr(iters[0], "k8s.volumes") != want {
				t.Errorf("pod %s's measurement counts %v mounted volumes, want %d", uid, attr(iters[0], "k8s.volumes"), want)
			}
		}
		if len(waits) < 3 {
			t.Errorf("the calculators' waits take %d values, want them jittered", len(waits))
		}
	})
}

// TestVolumeStatCalculatorJitterIsSeeded: each pod's calculator draws its
// own jitter, from a source seeded by the run's seed, the node and the
// pod's UID: two pods of a node wait differently, a pod waits the same in
// every run of a seed and otherwise with another seed.
func TestVolumeStatCalculatorJitterIsSeeded(t *testing.T) {
	// waits runs the analyzer with pods a and b for 15 minutes and returns
	// each calculator's waits between measurements, by pod name.
	waits := func(seed int64) map[string]string {
		out := map[string]string{}
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(t, goroutine.WithSeed(seed))
			defer h.stop()
			r := h.runtime(0, containerruntime.PauseImage, "busybox:1.25")
			k := h.kubelet(r)
			for _, name := range []string{"a", "b"} {
				k.pods.update(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)}})
			}
			k.analyzer.start(h.ctx)
			h.clk.Sleep(15 * time.Minute)
			if left := h.reg.Stop(10 * time.Second); len(left) != 0 {
				t.Errorf("goroutines left after stop: %v", left)
			}
			for _, l := range h.spansNamed("kubelet/volume-stat-calculator") {
				var ds []string
				var last time.Time
				for _, s := range h.spansNamed("calcAndStoreStats") {
					if s.Parent.SpanID() != l.SpanContext.SpanID() {
						continue
					}
					if !last.IsZero() {
						ds = append(ds, s.StartTime.Sub(last).String())
					}
					last = s.EndTime
				}
				if len(ds) < 5 {
					t.Errorf("seed %d: pod %v's calculator waited %d times in 15m, want at least 5", seed, attr(l, "k8s.pod.name"), len(ds))
				}
				out[fmt.Sprint(attr(l, "k8s.pod.name"))] = strings.Join(ds, ",")
			}
		})
		return out
	}
	one, again, two := waits(1), waits(1), waits(2)
	if len(one) != 2 {
		t.Fatalf("calculators of %v, want pods a and b", one)
	}
	if one["a"] == one["b"] {
		t.Errorf("pods a and b drew the same jitter: %s", one["a"])
	}
	for _, pod := range []string{"a", "b"} {
		if one[pod] != again[pod] {
			t.Errorf("pod %s, seed 1 twice, different waits: %s vs %s", pod, one[pod], again[pod])
		}
		if one[pod] == two[pod] {
			t.Errorf("pod %s, seeds 1 and 2, the same waits: %s", pod, one[pod])
		}
	}
}

// BenchmarkCalcAndStoreStats is one period of a node's calculators: each of
// the node's pods (an infra container and an app container, one mounted
// volume) measured once, as the pods' kubelet/volume-stat-calculator
// iterations do within a minute or two.
//
//	go test ./sim/kubelet -run '^$' -bench CalcAndStoreStats
func BenchmarkCalcAndStoreStats(b *testing.B) {
	for _, n := range []int{30, 110} { // cluster-scale's pods per node; --max-pods' default
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			clk, err := clock.NewScaled(1)
			if err != nil {
				b.Fatal(err)
			}
			rt := goroutine.NewRuntime("node-1", noop.NewTracerProvider().Tracer("b"), clk, goroutine.NewRegistry(clk))
			r := containerruntime.New(containerruntime.Options{Node: "node-1", Seed: 1, Clock: clk,
				Images: []string{containerruntime.PauseImage, "busybox:1.25"}})
			k := newKubelet(Options{Node: "node-1", Runtime: r, PodCIDR: "10.244.1.0/24"}, rt)
			var calcs []*volumeStatCalculator
			for i := range n {
				p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default", UID: types.UID(fmt.Sprintf("uid-%d", i))}}
				for _, spec := range []containerruntime.ContainerSpec{
					{Name: containerruntime.PodInfraContainerName, Image: containerruntime.PauseImage},
					{Name: "app", Image: "busybox:1.25"},
				} {
					if _, err := r.StartContainer(string(p.UID), p.Namespace, p.Name, spec); err != nil {
						b.Fatal(err)
					}
				}
				k.volumes.mounted[p.UID] = map[string]bool{"data": true}
				calcs = append(calcs, &volumeStatCalculator{pod: p})
			}
			ctx := rt.Context(context.Background())
			b.ResetTimer()
			for range b.N {
				for _, c := range calcs {
					k.analyzer.calcAndStoreStats(ctx, c)
				}
			}
			b.StopTimer()
			for _, c := range calcs {
				if used := c.latest.Load(); used == nil || *used == 0 {
					b.Fatalf("pod %s: no volume usage stored", c.pod.Name)
				}
			}
		})
	}
}
