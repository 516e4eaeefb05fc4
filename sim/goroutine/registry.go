package goroutine

import (
	"context"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubeloom/kubeloom/sim/clock"
)

// Registry knows every simulated goroutine that is alive, across instances.
// Stop cancels them all and names those that did not return in time.
type Registry struct {
	clock  clock.Clock
	ctx    context.Context
	cancel context.CancelFunc

	// interrupt is set by Interrupt, from any goroutine; the simulation
	// acts on it at the next goroutine or span it starts (noticeInterrupt).
	interrupt atomic.Bool

	mu      sync.Mutex
	live    map[string]map[string]int // by instance, by name: goroutines alive (kept as they start and stop: a kubelet that stops asks for its own every 10ms, and a thousand stop at once)
	counts  map[Key]*Count
	alive   int // goroutines alive now, in every instance
	stopped bool
	wg      sync.WaitGroup
}

// Key names a goroutine family of one instance.
type Key struct{ Instance, Name string }

// Count is how many goroutines of a family started and stopped.
type Count struct{ Started, Stopped int }

// NewRegistry returns an empty registry on the simulation clock.
func NewRegistry(clk clock.Clock) *Registry {
	ctx, cancel := context.WithCancel(context.Background())
	return &Registry{clock: clk, ctx: ctx, cancel: cancel, live: map[string]map[string]int{}, counts: map[Key]*Count{}}
}

func (r *Registry) add(g *G) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byName := r.live[g.key.Instance]
	if byName == nil {
		byName = map[string]int{}
		r.live[g.key.Instance] = byName
	}
	byName[g.key.Name]++
	c := r.count(g.key)
	c.Started++
	r.alive++
	r.wg.Add(1)
}

func (r *Registry) remove(g *G) {
	r.mu.Lock()
	byName := r.live[g.key.Instance]
	if byName[g.key.Name]--; byName[g.key.Name] == 0 {
		delete(byName, g.key.Name)
	}
	if len(byName) == 0 {
		delete(r.live, g.key.Instance)
	}
	r.count(g.key).Stopped++
	r.alive--
	r.mu.Unlock()
	r.wg.Done()
}

func (r *Registry) count(k Key) *Count {
	c := r.counts[k]
	if c == nil {
		c = &Count{}
		r.counts[k] = c
	}
	return c
}

// Live returns the families with goroutines alive now and how many, sorted.
func (r *Registry) Live() []Alive {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Alive
	for inst, byName := range r.live {
		for name, n := range byName {
			out = append(out, Alive{Key: Key{Instance: inst, Name: name}, N: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.less(out[j].Key) })
	return out
}

// Interrupt asks every goroutine to stop, as Ctrl-C does; safe from any
// goroutine, outside a run's bubble too (it only sets a flag). The next
// goroutine or span the simulation starts cancels them all (the cancel
// must come from inside the bubble): a single instant of virtual time can
// hold seconds of work (1,000 kubelets starting 30,000 pods), and a check
// between instants would come only after it.
func (r *Registry) Interrupt() { r.interrupt.Store(true) }

// noticeInterrupt cancels every goroutine once Interrupt was called.
func (r *Registry) noticeInterrupt() {
	if r.interrupt.Load() {
		r.cancel() // idempotent
	}
}

// Alive is how many goroutines are alive now, in every instance.
func (r *Registry) Alive() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alive
}

// liveOf returns the goroutine families of one instance alive now, by
// name (nil if none).
func (r *Registry) liveOf(instance string) map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.live[instance])
}

// Alive is a goroutine family with N goroutines alive.
type Alive struct {
	Key
	N int
}

// Counts returns the started/stopped counts per family, sorted.
func (r *Registry) Counts() []FamilyCount {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]FamilyCount, 0, len(r.counts))
	for k, c := range r.counts {
		out = append(out, FamilyCount{Key: k, Count: *c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.less(out[j].Key) })
	return out
}

// FamilyCount is the Count of one family.
type FamilyCount struct {
	Key
	Count
}

func (k Key) less(o Key) bool {
	if k.Instance != o.Instance {
		return k.Instance < o.Instance
	}
	return k.Name < o.Name
}

// Stop cancels every goroutine and waits up to grace (simulated time) for
// them to return. It returns the goroutines still alive then, by family; an
// empty result means everything stopped. Goroutines started after Stop are
// cancelled at once.
func (r *Registry) Stop(grace time.Duration) []Alive {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.cancel()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	t := r.clock.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-t.C():
	}
	return r.Live()
}
