package kubelet

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// probeManager is pkg/kubelet/prober/prober_manager.go: one
// kubelet/probe-worker per container probe, and kubelet/probe-readiness,
// which passes readiness results to the status manager.
//
// kubeloom's probes cannot reach a process: a probe succeeds once its
// container has run for initialDelaySeconds, and fails while the
// container is not running.
type probeManager struct {
	k       *Kubelet
	mu      sync.Mutex
	workers map[probeKey]context.CancelFunc
	results map[probeKey]bool // readiness results
	updates chan readinessUpdate
}

type probeKey struct {
	uid       types.UID
	container string
	probe     string // readiness, liveness
}

type readinessUpdate struct {
	pod       *corev1.Pod
	container string
	ready     bool
	cause     trace.SpanContext
}

func newProbeManager(k *Kubelet) *probeManager {
	return &probeManager{k: k, workers: map[probeKey]context.CancelFunc{}, results: map[probeKey]bool{},
		updates: make(chan readinessUpdate, 20)}
}

// start is manager.Start: go wait.Forever(m.updateReadiness, 0).
func (m *probeManager) start(ctx context.Context) {
	m.k.rt.Go(ctx, "kubelet/probe-readiness", func(ctx context.Context) {
		for {
			select {
			case <-ctx.Done():
				return
			case u := <-m.updates:
				ictx, sp := goroutine.Iterate(ctx, "updateReadiness", trace.WithLinks(goroutine.Cause(u.cause, key(u.pod))),
					trace.WithAttributes(attribute.String(catalog.AttrContainer, u.container), attribute.Bool("kubelet.ready", u.ready)))
				m.k.status.setContainerReadiness(ictx, u.pod.UID, u.container, u.ready)
				sp.End()
			}
		}
	}, goroutine.WithKind(catalog.KindForever))
}

// AddPod starts a worker for each probe of each container of the pod.
func (m *probeManager) addPod(ctx context.Context, pod *corev1.Pod) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range pod.Spec.Containers {
		for _, p := range []struct {
			name  string
			probe *corev1.Probe
		}{{"readiness", c.ReadinessProbe}, {"liveness", c.LivenessProbe}} {
			if p.probe == nil {
				continue
			}
			k := probeKey{uid: pod.UID, container: c.Name, probe: p.name}
			if _, ok := m.workers[k]; ok {
				continue
			}
			wctx, cancel := context.WithCancel(ctx)
			m.workers[k] = cancel
			w := &probeWorker{m: m, pod: pod, container: c, key: k, probe: p.probe}
			m.k.rt.Go(wctx, "kubelet/probe-worker", w.run, goroutine.WithAttributes(append(podAttrs(pod),
				attribute.String(catalog.AttrContainer, c.Name), attribute.String(catalog.AttrProbeType, p.name))...))
		}
	}
}

// removePod stops the pod's workers.
func (m *probeManager) removePod(pod *corev1.Pod) {
	m.stop(func(k probeKey) bool { return k.uid == pod.UID })
}

// cleanup is CleanupPods: stop the workers of pods that are gone.
func (m *probeManager) cleanup(desired map[types.UID]bool) {
	m.stop(func(k probeKey) bool { return !desired[k.uid] })
}

// stop stops the workers whose key matches, in key order, not map order:
// they wake and end in the order they are cancelled, the same every run.
func (m *probeManager) stop(match func(probeKey) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []probeKey
	for k := range m.workers {
		if match(k) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b probeKey) int {
		return cmp.Or(strings.Compare(string(a.uid), string(b.uid)), strings.Compare(a.container, b.container), strings.Compare(a.probe, b.probe))
	})
	for _, k := range keys {
		m.workers[k]()
		delete(m.workers, k)
		delete(m.results, k)
	}
}

// ready is the container's readiness: its probe's last result, or true
// without a readiness probe.
func (m *probeManager) ready(pod *corev1.Pod, c corev1.Container) bool {
	if c.ReadinessProbe == nil {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.results[probeKey{uid: pod.UID, container: c.Name, probe: "readiness"}]
}

// probeWorker is prober/worker.go: it probes every periodSeconds.
type probeWorker struct {
	m         *probeManager
	pod       *corev1.Pod
	container corev1.Container
	key       probeKey
	probe     *corev1.Probe
	last      *bool
}

func (w *probeWorker) run(ctx context.Context) {
	period := time.Duration(w.probe.PeriodSeconds) * time.Second
	if period <= 0 {
		period = defaultProbePeriod
	}
	clk := w.m.k.rt.Clock()
	ticker := clk.NewTicker(period)
	defer ticker.Stop()
	for {
		w.doProbe(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
		}
	}
}

// doProbe runs one probe and reports a changed readiness result.
func (w *probeWorker) doProbe(ctx context.Context) {
	ctx, sp := goroutine.Iterate(ctx, "probe")
	defer sp.End()
	var running *containerruntime.Container
	for _, c := range w.m.k.cache.get(w.pod.UID) {
		if c.Name == w.container.Name && c.State == containerruntime.StateRunning {
			running = &c
		}
	}
	now := w.m.k.rt.Clock().Now()
	ok := running != nil && now.Sub(running.Started) >= time.Duration(w.probe.InitialDelaySeconds)*time.Second
	result := "success"
	switch {
	case running == nil:
		result = "failure: container not running"
	case !ok:
		result = "skipped: initial delay"
	}
	sp.SetAttributes(attribute.String("kubelet.probe.result", result))
	if w.key.probe != "readiness" || w.last != nil && *w.last == ok {
		return
	}
	w.last = &ok
	w.m.mu.Lock()
	w.m.results[w.key] = ok
	w.m.mu.Unlock()
	select {
	case w.m.updates <- readinessUpdate{pod: w.pod, container: w.container.Name, ready: ok, cause: sp.SpanContext()}:
	case <-ctx.Done():
	}
}
