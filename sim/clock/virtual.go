package clock

import (
	"sync/atomic"
	"time"

	k8sclock "k8s.io/utils/clock"
)

// Virtual is the clock of a run in virtual time: it must be made and used
// inside a testing/synctest bubble (internal/bubble), where the time
// package's clock stands still while any goroutine can run and jumps to the
// next timer once all are blocked. Virtual reads that clock and starts at
// origin: simulated now = origin + bubble time elapsed since NewVirtual.
//
// Nothing here fights the machine, as Scaled must: a timer fires exactly
// when its simulated duration has passed, however busy the CPU is.
type Virtual struct {
	origin time.Time
	start  time.Time // the bubble's time at the start
	turns  *turns    // nil unless WithTurns
	set    atomic.Uint64
}

// VirtualOption configures a Virtual clock.
type VirtualOption func(*Virtual)

// WithTurns makes the goroutines whose timers fire at one instant run one
// after another (see turns): on one processor, a run then repeats. It
// starts a goroutine, which Stop ends.
func WithTurns() VirtualOption { return func(c *Virtual) { c.turns = newTurns() } }

var _ Sim = (*Virtual)(nil)

// NewVirtual returns a clock that starts at origin now. Call it inside the
// bubble the run uses.
func NewVirtual(origin time.Time, opts ...VirtualOption) *Virtual {
	c := &Virtual{origin: origin, start: time.Now()}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Stop ends what the clock runs (WithTurns' conductor); timers still work,
// without turns.
func (c *Virtual) Stop() {
	if c.turns != nil {
		c.turns.stop()
	}
}

// setKey counts a timer being set: its turn's key.
func (c *Virtual) setKey() uint64 { return c.set.Add(1) }

// take waits for the turn of the timer set key-th, with turns.
func (c *Virtual) take(key uint64) {
	if c.turns != nil {
		c.turns.take(key)
	}
}

// Origin is the simulated time at which the clock started.
func (c *Virtual) Origin() time.Time { return c.origin }

// Elapsed is the simulated time since the clock started.
func (c *Virtual) Elapsed() time.Duration { return time.Since(c.start) }

// Now is the current simulated time. (origin has no monotonic reading, so
// neither has Now: simulated times compare by their wall reading.)
func (c *Virtual) Now() time.Time { return c.origin.Add(time.Since(c.start)) }

// Since is the simulated time elapsed since t.
func (c *Virtual) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Sleep blocks for d of simulated time.
func (c *Virtual) Sleep(d time.Duration) {
	key := c.setKey()
	time.Sleep(d)
	c.take(key)
}

// After fires once d of simulated time has passed.
func (c *Virtual) After(d time.Duration) <-chan time.Time { return c.NewTimer(d).C() }

// Tick is like time.Tick in simulated time. It never stops; prefer NewTicker.
func (c *Virtual) Tick(d time.Duration) <-chan time.Time { return c.NewTicker(d).C() }

// Wait blocks for d of simulated time, or until done is closed, and reports
// whether d passed: what every simulated loop waits on between iterations.
// t holds the timer from one wait to the next, as for Scaled.Wait.
func (c *Virtual) Wait(done <-chan struct{}, d time.Duration, t *k8sclock.Timer) bool {
	key := c.setKey()
	timer := reuseTimer(t, d, k8sclock.RealClock{}.NewTimer)
	select {
	case <-done:
		timer.Stop()
		return false
	case <-timer.C():
		c.take(key)
		return true
	}
}

// NewTimer returns a timer that fires after d of simulated time, sending the
// simulated time on its channel (the bubble's own timer would send the
// bubble's time, which starts in 2000).
func (c *Virtual) NewTimer(d time.Duration) k8sclock.Timer {
	t := &virtualTimer{clock: c, c: make(chan time.Time, 1)}
	t.key.Store(c.setKey())
	t.real = time.AfterFunc(d, t.fire)
	return t
}

// AfterFunc calls f in its own goroutine after d of simulated time.
func (c *Virtual) AfterFunc(d time.Duration, f func()) k8sclock.Timer {
	t := &virtualFuncTimer{clock: c}
	t.key.Store(c.setKey())
	t.real = time.AfterFunc(d, func() {
		c.take(t.key.Load())
		f()
	})
	return t
}

// NewTicker returns a ticker with a simulated period d.
func (c *Virtual) NewTicker(d time.Duration) k8sclock.Ticker {
	t := newTicker(k8sclock.RealClock{}.NewTicker(d), c.Now)
	key := c.setKey() // the next tick's place, taken when the last one was
	t.take = func() {
		c.take(key)
		key = c.setKey()
	}
	return t
}

type virtualTimer struct {
	key   atomic.Uint64
	clock *Virtual
	real  *time.Timer
	c     chan time.Time
}

func (t *virtualTimer) fire() {
	t.clock.take(t.key.Load())
	select {
	case t.c <- t.clock.Now():
	default:
	}
}

func (t *virtualTimer) C() <-chan time.Time { return t.c }
func (t *virtualTimer) Stop() bool          { return t.real.Stop() }
func (t *virtualTimer) Reset(d time.Duration) bool {
	// Drain a stale firing, as time.Timer.Reset documents for its users.
	select {
	case <-t.c:
	default:
	}
	t.key.Store(t.clock.setKey())
	return t.real.Reset(d)
}

type virtualFuncTimer struct {
	key   atomic.Uint64
	clock *Virtual
	real  *time.Timer
}

func (t *virtualFuncTimer) C() <-chan time.Time { return nil }
func (t *virtualFuncTimer) Stop() bool          { return t.real.Stop() }
func (t *virtualFuncTimer) Reset(d time.Duration) bool {
	t.key.Store(t.clock.setKey())
	return t.real.Reset(d)
}
