package kubelet

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// volumeStatJitter is the jitter factor of each pod's calculator: StartOnce
// runs wait.JitterUntil(calcAndStoreStats, jitterPeriod, 1.0, stopChannel),
// so every wait is in [1m, 2m) (volume_stat_caculator.go, v1.2–1.3;
// volume_stat_calculator.go since 1.4, the same call).
const volumeStatJitter = 1.0

// fsResourceAnalyzer is pkg/kubelet/server/stats/fs_resource_analyzer.go:
// its loop, kubelet/fs-volume-stats, keeps one volumeStatCalculator per pod
// the kubelet knows (statsProvider.GetPods, the pod manager's pods), and
// /stats/summary reads each pod's volume usage from its calculator.
//
// The analyzer measures nothing itself: from v1.2 on (the release that
// answered kubernetes#20675, "metrics collection should also be spread
// evenly over the collection period") updateCachedPodVolumeStats only
// starts a calculator for each pod it has not seen and stops those of the
// pods that are gone; each calculator is a goroutine of its own.
type fsResourceAnalyzer struct {
	k *Kubelet
	// mu guards cache, which the loop replaces each period and
	// /stats/summary reads (the source swaps an atomic.Value).
	mu    sync.Mutex
	cache map[types.UID]*volumeStatCalculator
}

// volumeStatCalculator is one pod's calculator: kubelet/volume-stat-calculator.
type volumeStatCalculator struct {
	pod  *corev1.Pod
	stop context.CancelFunc // StopOnce: close(s.stopChannel)
	// latest is the pod's last measured volume usage, nil until a
	// measurement found mounted volumes (GetLatest's false).
	latest atomic.Pointer[uint64]
}

// start is fsResourceAnalyzer.Start: unless --volume-stats-agg-period is 0
// (kubeloom keeps the default, 1m), go wait.Forever(updateCachedPodVolumeStats, calcPeriod).
func (a *fsResourceAnalyzer) start(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "resourceAnalyzer.Start")
	defer sp.End()
	a.k.rt.Forever(ctx, "kubelet/fs-volume-stats", volumeStatsAggPeriod, a.updateCachedPodVolumeStats,
		goroutine.WithIterationName("updateCachedPodVolumeStats"))
}

// updateCachedPodVolumeStats is one iteration of kubelet/fs-volume-stats:
// a new cache of the pods GetPods returns, keeping each known pod's
// calculator and starting one (StartOnce) for each pod first seen; then
// StopOnce on the calculators of the pods no longer there. A calculator
// thus starts at the analyzer's first iteration after its pod reached the
// pod manager and stops at the first after the pod left it: up to one
// period (1m) late either way, as in the source.
func (a *fsResourceAnalyzer) updateCachedPodVolumeStats(ctx context.Context) {
	pods := a.k.pods.list()
	a.mu.Lock()
	old := a.cache
	a.mu.Unlock()
	next := make(map[types.UID]*volumeStatCalculator, len(pods))
	started := 0
	for _, p := range pods {
		if c, ok := old[p.UID]; ok {
			next[p.UID] = c
			continue
		}
		next[p.UID] = a.startCalculator(ctx, p)
		started++
	}
	var gone []types.UID
	for uid := range old {
		if _, ok := next[uid]; !ok {
			gone = append(gone, uid)
		}
	}
	// In UID order, not map order: the calculators end in the order they
	// are stopped, the same every run.
	slices.Sort(gone)
	for _, uid := range gone {
		old[uid].stop()
	}
	a.mu.Lock()
	a.cache = next
	a.mu.Unlock()
	goroutine.SpanFrom(ctx).SetAttributes(attribute.Int("k8s.pods", len(pods)),
		attribute.Int("kubelet.calculators_started", started), attribute.Int("kubelet.calculators_stopped", len(gone)))
}

// startCalculator is newVolumeStatCalculator(statsProvider, calcPeriod,
// pod).StartOnce(): go wait.JitterUntil(calcAndStoreStats, calcPeriod,
// 1.0, stopChannel). The goroutine starts inside the analyzer's iteration
// (its lifetime span is that iteration's child) and ends when stop is
// called; the simulation's end stops it too.
func (a *fsResourceAnalyzer) startCalculator(ctx context.Context, p *corev1.Pod) *volumeStatCalculator {
	cctx, cancel := context.WithCancel(ctx)
	c := &volumeStatCalculator{pod: p, stop: cancel}
	// wait.JitterUntil computes each wait after f returns: sliding. Each
	// calculator draws its own jitter, as each real one draws from
	// math/rand: its source is seeded from the run's seed, the node and the
	// pod's UID (WithSeedKey), so a run is the same every time while the
	// node's calculators spread out.
	a.k.rt.JitterUntil(cctx, "kubelet/volume-stat-calculator", volumeStatsAggPeriod, volumeStatJitter, true,
		func(ctx context.Context) { a.calcAndStoreStats(ctx, c) },
		goroutine.WithAttributes(podAttrs(p)...), goroutine.WithIterationName("calcAndStoreStats"),
		goroutine.WithSeedKey(string(p.UID)))
	return c
}

// calcAndStoreStats is one iteration of a calculator: the pod's mounted
// volumes (ListVolumesForPod, the volume manager's mounted volumes of the
// pod); none, and it stores nothing (the source returns before storing).
// Otherwise GetMetrics of each volume, which runs du on its directory;
// kubeloom has no volume directories and takes a quarter of the pod's
// writable layers as the volumes' usage, a stand-in for du.
func (a *fsResourceAnalyzer) calcAndStoreStats(ctx context.Context, c *volumeStatCalculator) {
	vols := a.k.volumes.mountedOf(c.pod.UID)
	sp := goroutine.SpanFrom(ctx)
	sp.SetAttributes(attribute.Int("k8s.volumes", vols))
	if vols == 0 {
		return
	}
	var used uint64
	ps, _ := a.k.o.Runtime.StatsOf(string(c.pod.UID))
	for _, ct := range ps.Containers {
		used += ct.RootfsUsedBytes / 4
	}
	c.latest.Store(&used)
	sp.SetAttributes(attribute.Int64("kubelet.volumes_used_bytes", int64(used)))
}

// podVolumeUsed is GetPodVolumeStats, for /stats/summary: the pod's latest
// measurement, 0 without a calculator or before one found mounted volumes.
func (a *fsResourceAnalyzer) podVolumeUsed(uid types.UID) uint64 {
	a.mu.Lock()
	c := a.cache[uid]
	a.mu.Unlock()
	if c == nil {
		return 0
	}
	if used := c.latest.Load(); used != nil {
		return *used
	}
	return 0
}
