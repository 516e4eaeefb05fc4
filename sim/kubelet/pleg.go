package kubelet

import (
	"context"
	"sort"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Pod lifecycle event types (pkg/kubelet/pleg/pleg.go).
const (
	containerStarted = "ContainerStarted"
	containerDied    = "ContainerDied"
	containerRemoved = "ContainerRemoved"
)

type lifecycleEvent struct {
	uid       types.UID
	typ       string
	container string
	cause     trace.SpanContext
	killedBy  trace.SpanContext // what made the container die, if known (a scenario's injectOOM)
}

// pleg is the generic PLEG (pkg/kubelet/pleg/generic.go): every second
// kubelet/pleg-relist lists every container of the runtime, compares each
// with the last relist, updates the pod cache and sends a lifecycle event
// per change to syncLoop (channel capacity 1000).
type pleg struct {
	k      *Kubelet
	events chan *lifecycleEvent // pointers: a buffer of 1,000 events is 8 KB, not 180 KB, per node
	mu     sync.Mutex
	last   map[string]containerruntime.State // container ID → state at the last relist
	buf    []containerruntime.Container      // the relist's listing, reused
}

// unchanged reports whether every container listed is in last, in the
// same state (with equal lengths: the same containers).
func unchanged(all []containerruntime.Container, last map[string]containerruntime.State) bool {
	for _, c := range all {
		if st, ok := last[c.ID]; !ok || st != c.State {
			return false
		}
	}
	return true
}

func newPLEG(k *Kubelet) *pleg {
	return &pleg{k: k, events: make(chan *lifecycleEvent, 1000)}
}

// start is GenericPLEG.Start: go wait.Until(g.relist, g.relistPeriod, wait.NeverStop).
func (g *pleg) start(ctx context.Context) {
	g.k.rt.Until(ctx, "kubelet/pleg-relist", plegRelistPeriod, g.relist, goroutine.WithIterationName("relist"))
}

func (g *pleg) relist(ctx context.Context) {
	now := g.k.rt.Clock().Now()
	all := g.k.o.Runtime.AppendContainers(g.buf, true)
	g.buf = all
	g.mu.Lock()
	last := g.last
	g.mu.Unlock()
	if last != nil && len(all) == len(last) && unchanged(all, last) {
		// The same containers in the same states: no events, and the
		// cache's pods stay as they are; only its time moves (generic.go
		// updates the cache of the pods with events, then UpdateTime).
		g.k.cache.touch(now)
		return
	}
	current := make(map[string]containerruntime.State, len(all))
	pods := make(map[types.UID][]containerruntime.Container, len(g.k.cache.snapshot()))
	for _, c := range all {
		current[c.ID] = c.State
		pods[types.UID(c.PodUID)] = append(pods[types.UID(c.PodUID)], c)
	}
	g.mu.Lock()
	g.last = current
	g.mu.Unlock()
	var evs []lifecycleEvent
	for _, c := range all {
		st := c.State
		prev, seen := last[c.ID]
		switch {
		case st == containerruntime.StateRunning && (!seen || prev != containerruntime.StateRunning):
			evs = append(evs, lifecycleEvent{uid: types.UID(c.PodUID), typ: containerStarted, container: c.Name})
		case st == containerruntime.StateExited && seen && prev == containerruntime.StateRunning,
			st == containerruntime.StateExited && !seen && last != nil:
			evs = append(evs, lifecycleEvent{uid: types.UID(c.PodUID), typ: containerDied, container: c.Name, killedBy: g.k.o.Runtime.ExitCause(c.ID)})
		}
	}
	for id := range last {
		if _, ok := current[id]; !ok {
			evs = append(evs, lifecycleEvent{uid: "", typ: containerRemoved, container: id})
		}
	}
	// g.cache.UpdateTime / Set: pod workers waiting for a newer cache go on.
	g.k.cache.set(pods, now)
	if len(evs) == 0 {
		return
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].uid != evs[j].uid {
			return evs[i].uid < evs[j].uid
		}
		return evs[i].typ+evs[i].container < evs[j].typ+evs[j].container
	})
	sp := goroutine.SpanFrom(ctx)
	sp.SetAttributes(attribute.Int("kubelet.pleg.events", len(evs)), attribute.Int("containers", len(all)))
	for _, e := range evs {
		if e.killedBy.IsValid() {
			// The relist that sees a killed container die reacts to the kill.
			sp.AddLink(goroutine.Cause(e.killedBy, string(e.uid)))
		}
		sp.AddEvent(e.typ, attribute.String("k8s.pod.uid", string(e.uid)), attribute.String(catalog.AttrContainer, e.container))
		if e.typ == containerRemoved {
			continue // not sync-worthy
		}
		e.cause = sp.SpanContext()
		select { // v1.5 sends blocking (a full channel is dropped only since 1.6)
		case g.events <- &e:
		case <-ctx.Done():
			return
		}
	}
}
