package kubelet

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// memoryAvailableThreshold is v1.5's default hard eviction threshold,
// memory.available<100Mi.
const memoryAvailableThreshold = 100 << 20

// evictionManager is pkg/kubelet/eviction: every 10s it observes the
// node's memory (from the runtime's stats), reports memory pressure for
// the node status and, below the threshold, evicts one pod.
type evictionManager struct {
	k            *Kubelet
	mu           sync.Mutex
	pressure     bool
	lastObserved time.Time // when the threshold was last crossed
	started      bool
}

// pressureTransitionPeriod is --eviction-pressure-transition-period: a
// node leaves a pressure condition only this long after the threshold was
// last crossed.
const pressureTransitionPeriod = 5 * time.Minute

func newEvictionManager(k *Kubelet) *evictionManager { return &evictionManager{k: k} }

// start is managerImpl.Start: go wait.Until(func() { m.synchronize(...) }, monitoringInterval, wait.NeverStop).
func (m *evictionManager) start(ctx context.Context) {
	m.mu.Lock()
	started := m.started
	m.started = true
	m.mu.Unlock()
	if started {
		return
	}
	m.k.rt.Until(ctx, "kubelet/eviction", evictionMonitoringPeriod, m.synchronize, goroutine.WithIterationName("synchronize"))
}

func (m *evictionManager) underMemoryPressure() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pressure
}

func (m *evictionManager) synchronize(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	available := m.k.o.Runtime.MemoryAvailable()
	fs := m.k.o.Runtime.ImageFsInfo()
	crossed := available < memoryAvailableThreshold
	now := m.k.rt.Clock().Now()
	m.mu.Lock()
	if crossed {
		m.lastObserved = now
	}
	m.pressure = !m.lastObserved.IsZero() && now.Sub(m.lastObserved) < pressureTransitionPeriod
	pressure := m.pressure
	m.mu.Unlock()
	sp.SetAttributes(attribute.Int64("kubelet.eviction.memory_available_bytes", int64(available)),
		attribute.Int64("kubelet.eviction.imagefs_available_bytes", fs.Capacity-fs.Usage), attribute.Bool("kubelet.eviction.memory_pressure", pressure))
	if !crossed {
		return
	}
	// Rank the active pods: the one using the most memory goes first
	// (v1.5 ranks by QoS class first; kubeloom's pods have no requests,
	// so all are BestEffort and usage decides).
	usage := map[string]uint64{}
	for _, ps := range m.k.o.Runtime.Stats() {
		for _, c := range ps.Containers {
			usage[ps.PodUID] += c.MemoryWorkingSetBytes
		}
	}
	var victim *corev1.Pod
	for _, p := range m.k.pods.list() {
		if m.k.podIsTerminated(p) {
			continue
		}
		if victim == nil || usage[string(p.UID)] > usage[string(victim.UID)] {
			victim = p
		}
	}
	if victim == nil {
		return
	}
	msg := "The node was low on resource: memory."
	ctx, esp := goroutine.Start(ctx, "evictPod", trace.WithAttributes(podAttrs(victim)...))
	defer esp.End()
	m.k.recorder.Eventf(ctx, victim, corev1.EventTypeWarning, "Evicted", "%s", msg)
	status := *victim.Status.DeepCopy()
	if s, ok := m.k.status.get(victim.UID); ok {
		status = *s.DeepCopy()
	}
	status.Phase, status.Reason, status.Message = corev1.PodFailed, "Evicted", msg
	// killPodNow: through the pod's worker, with the status to report.
	m.k.workers.update(ctx, workUpdate{pod: victim, updateType: "kill", kill: &status, cause: esp.SpanContext()})
}
