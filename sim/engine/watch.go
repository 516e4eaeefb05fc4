package engine

import (
	"sync"
	"sync/atomic"
	"time"

	k8sclock "k8s.io/utils/clock"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

// Watch follows a run from outside it: a progress line reads Snapshot as
// often as it likes, from any goroutine, outside the run's bubble in
// virtual time, and reading changes nothing in the run. In virtual time the
// run also learns through its Watch that it must stop (RunVirtual's
// context cannot reach into the bubble).
type Watch struct {
	mu      sync.Mutex
	started bool
	live    clock.Sim // live mode's clock, which any goroutine may read
	reg     *goroutine.Registry
	tracing *tracing.Tracing
	total   time.Duration
	last    string // the last action played

	elapsed atomic.Int64 // virtual time: simulated nanoseconds, as the pulse last saw them
	stop    atomic.Bool  // virtual time: the caller asked the run to stop
}

// Snapshot is the run's progress now; false before the run has started.
func (w *Watch) Snapshot() (Progress, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started {
		return Progress{}, false
	}
	elapsed := time.Duration(w.elapsed.Load())
	if w.live != nil {
		elapsed = w.live.Elapsed()
	}
	return Progress{Elapsed: min(elapsed, w.total), Duration: w.total, Goroutines: w.reg.Alive(), Spans: w.tracing.Ended(), LastAction: w.last}, true
}

// requestStop asks a run in virtual time to stop, as Ctrl-C does; safe from
// outside its bubble. Its goroutines stop at the next goroutine or span the
// run starts (goroutine.Registry.Interrupt), and the run itself within a
// pulse of simulated time.
func (w *Watch) requestStop() {
	w.stop.Store(true)
	w.mu.Lock()
	reg := w.reg
	w.mu.Unlock()
	if reg != nil {
		reg.Interrupt()
	}
}

// pulse is how often, in simulated time, a run in virtual time publishes
// its clock to its Watch and looks whether it must stop: a tenth of a
// simulated second, a few thousand wake-ups in a long run, each alone at
// its instant but for what the simulation itself does then (it reads and
// writes only the Watch, so it cannot change what the simulation does).
const pulse = 100 * time.Millisecond

// follow attaches w to a starting run. In virtual time it starts the pulse,
// which cancel ends the run from; the result stops it.
func (w *Watch) follow(m mode, clk clock.Sim, reg *goroutine.Registry, tr *tracing.Tracing, total time.Duration, cancel func()) (stop func()) {
	w.mu.Lock()
	w.started, w.reg, w.tracing, w.total = true, reg, tr, total
	if !m.virtual() {
		w.live = clk
	}
	w.mu.Unlock()
	if w.stop.Load() {
		reg.Interrupt()
	}
	if !m.virtual() {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var t k8sclock.Timer
		for {
			w.elapsed.Store(int64(clk.Elapsed()))
			if w.stop.Load() {
				cancel()
			}
			if !clk.Wait(done, pulse, &t) {
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		w.elapsed.Store(int64(clk.Elapsed()))
	}
}

// played records the last action played, for Snapshot.
func (w *Watch) played(action string) {
	w.mu.Lock()
	w.last = action
	w.mu.Unlock()
}
