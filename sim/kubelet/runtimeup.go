package kubelet

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// baseRuntimeSyncThreshold: the runtime counts as down when updateRuntimeUp
// has not succeeded for this long (pkg/kubelet/runtime.go).
const baseRuntimeSyncThreshold = 30 * time.Second

var errRuntimeDown = errors.New("container runtime is down")

// runtimeState is pkg/kubelet/runtime.go: what the node's Ready
// condition and syncLoop check.
type runtimeState struct {
	mu           sync.Mutex
	lastSync     int64 // unix nanos of the last successful updateRuntimeUp
	networkError error
	initError    error
}

func (s *runtimeState) setRuntimeSync(t time.Time) {
	s.mu.Lock()
	s.lastSync = t.UnixNano()
	s.mu.Unlock()
}

func (s *runtimeState) setNetworkError(err error) {
	s.mu.Lock()
	s.networkError = err
	s.mu.Unlock()
}

// runtimeErrors is runtimeState.runtimeErrors.
func (s *runtimeState) runtimeErrors(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastSync == 0 || now.Sub(time.Unix(0, s.lastSync)) > baseRuntimeSyncThreshold {
		return errRuntimeDown
	}
	return s.initError
}

func (s *runtimeState) networkErrors() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.networkError
}

// runtimeStatusLatency is how long the runtime takes to answer a status
// call (docker's /info and /version, a CRI Status today). It is what makes
// syncLoop's first pass, a few instructions after Kubelet.Run starts
// kubelet/runtime-up, find the runtime not yet up, as a real kubelet's does;
// without it the two goroutines would race at one simulated instant.
const runtimeStatusLatency = 10 * time.Millisecond

// updateRuntimeUp is the body of kubelet/runtime-up: check the runtime's
// status; the first success initializes the modules that need it.
func (k *Kubelet) updateRuntimeUp(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	t := k.rt.Clock().NewTimer(runtimeStatusLatency)
	select {
	case <-ctx.Done():
		t.Stop()
		return
	case <-t.C():
	}
	if err := k.o.Runtime.Status(); err != nil {
		sp.RecordError(err)
		return
	}
	if k.modern {
		// Today the network's readiness is part of the CRI runtime status.
		k.state.setNetworkError(nil)
	}
	// kl.oneTimeInitializer.Do(kl.initializeRuntimeDependentModules)
	k.runtimeInit.Do(func() { k.initializeRuntimeDependentModules(ctx) })
	k.state.setRuntimeSync(k.rt.Clock().Now())
}

// initializeRuntimeDependentModules starts cAdvisor and, since 1.5 (era
// modern), the eviction manager.
func (k *Kubelet) initializeRuntimeDependentModules(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "initializeRuntimeDependentModules")
	defer sp.End()
	step(ctx, "cadvisor.Start")
	if k.modern {
		k.eviction.start(ctx)
	}
}

// syncNetworkStatus is the body of kubelet/network-status (classic): the
// network plugin's status becomes part of the node's readiness.
func (k *Kubelet) syncNetworkStatus(ctx context.Context) {
	// kubenet's Status() reports ready once the node has a pod CIDR.
	var err error
	if k.o.PodCIDR == "" {
		err = errors.New("network plugin kubenet: no pod CIDR yet")
	}
	k.state.setNetworkError(err)
	goroutine.SpanFrom(ctx).SetAttributes(attribute.Bool("kubelet.network_ready", err == nil))
}
