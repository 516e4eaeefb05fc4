package clock

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	k8sclock "k8s.io/utils/clock"
)

// Scaled is a clock whose time runs speed times faster than the real clock
// under it: simulated now = origin + real elapsed × speed. Timers and tickers
// fire after the simulated duration has passed, i.e. after d/speed real time.
type Scaled struct {
	real   Base
	speed  float64
	origin time.Time // simulated time at the start
	start  time.Time // real time at the start

	// lead is how much earlier (real nanoseconds) than its deadline each
	// real timer is set. The Go runtime wakes sleeping timers up to about a
	// millisecond late (its poller sleeps in whole milliseconds), which at
	// speed 60 is 60 simulated milliseconds, a 100ms loop's period off by
	// half. lead follows the lateness timers showed (an integral
	// controller), so that they fire on time on average; it is bounded by
	// maxLead and by half of each timer's duration.
	lead atomic.Int64
}

// maxLead bounds the timer lead.
const maxLead = 2 * time.Millisecond

var _ Sim = (*Scaled)(nil)

// NewScaled returns a clock that starts now (simulated time = real time at
// the start) and runs speed times faster than real time. Inside a
// testing/synctest bubble the real clock is the bubble's virtual clock.
func NewScaled(speed float64) (*Scaled, error) {
	return NewScaledOn(k8sclock.RealClock{}, speed)
}

// Base is the real clock under a Scaled clock (k8s.io/utils/clock.RealClock).
type Base interface {
	k8sclock.WithTicker
	AfterFunc(d time.Duration, f func()) k8sclock.Timer
}

// NewScaledOn is NewScaled over another underlying clock.
func NewScaledOn(real Base, speed float64) (*Scaled, error) {
	return newScaled(real, real.Now(), speed)
}

// NewScaledAt is NewScaled with simulated time starting at origin.
func NewScaledAt(origin time.Time, speed float64) (*Scaled, error) {
	return newScaled(k8sclock.RealClock{}, origin, speed)
}

func newScaled(real Base, origin time.Time, speed float64) (*Scaled, error) {
	if !(speed > 0) || speed > 1e6 {
		return nil, fmt.Errorf("invalid speed %v: expected a number > 0 and ≤ 1000000", speed)
	}
	return &Scaled{real: real, speed: speed, origin: origin, start: real.Now()}, nil
}

// Speed is the number of simulated seconds per real second.
func (c *Scaled) Speed() float64 { return c.speed }

// Origin is the simulated time at which the clock started.
func (c *Scaled) Origin() time.Time { return c.origin }

// Elapsed is the simulated time since the clock started.
func (c *Scaled) Elapsed() time.Duration { return c.Now().Sub(c.origin) }

// ToReal converts a simulated duration into the real duration it takes.
// Use it for durations handed to code that runs on its own real clock
// (client-go's leader election, wait.Until inside client-go).
//
// It rounds up to the next real nanosecond: rounded down, a timer of d
// would fire a few simulated nanoseconds before d has passed (at speed 60
// a 10s ticker at 9.99999996s), and code that checks the time when it
// fires (a CronJob's "is it 1m0s yet") would find it not yet there.
func (c *Scaled) ToReal(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	return time.Duration(math.Ceil(float64(d) / c.speed))
}

// Now is the current simulated time.
func (c *Scaled) Now() time.Time {
	elapsed := c.real.Since(c.start)
	return c.origin.Add(time.Duration(float64(elapsed) * c.speed))
}

// Since is the simulated time elapsed since t.
func (c *Scaled) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// After fires once d of simulated time has passed.
func (c *Scaled) After(d time.Duration) <-chan time.Time {
	return c.NewTimer(d).C()
}

// Sleep blocks for d of simulated time.
func (c *Scaled) Sleep(d time.Duration) { c.real.Sleep(c.ToReal(d)) }

// Tick is like time.Tick in simulated time. It never stops; prefer NewTicker.
func (c *Scaled) Tick(d time.Duration) <-chan time.Time { return c.NewTicker(d).C() }

// NewTimer returns a timer that fires after d of simulated time, sending the
// simulated time on its channel.
func (c *Scaled) NewTimer(d time.Duration) k8sclock.Timer {
	t := &timer{clock: c, c: make(chan time.Time, 1)}
	t.real = c.afterFunc(d, t.fire)
	return t
}

// Wait blocks for d of simulated time, or until done is closed, and
// reports whether d passed. It is a timer without a goroutine of its own
// (a channel timer of the real clock, set lead early; the lateness it
// shows is learnt once it is received): what every simulated loop waits
// on between iterations, ten times a second for a 100ms loop, where
// NewTimer would start a goroutine at each firing to translate the time.
//
// t holds the real timer from one wait to the next: a loop that passes the
// same one each time allocates nothing to wait, as wait.JitterUntil
// reuses its timer (resetOrReuseTimer, k8s.io/apimachinery/pkg/util/wait).
// A nil *t gets a new timer. Wait leaves it fired or stopped, so there is
// nothing to stop once the loop is done.
func (c *Scaled) Wait(done <-chan struct{}, d time.Duration, t *k8sclock.Timer) bool {
	real := c.ToReal(d)
	early := min(time.Duration(c.lead.Load()), real/2)
	deadline := c.real.Now().Add(real)
	timer := reuseTimer(t, real-early, c.real.NewTimer)
	select {
	case <-done:
		timer.Stop()
		return false
	case <-timer.C():
		c.learn(c.real.Since(deadline))
		return true
	}
}

// AfterFunc calls f in its own goroutine after d of simulated time.
func (c *Scaled) AfterFunc(d time.Duration, f func()) k8sclock.Timer {
	return &funcTimer{real: c.afterFunc(d, f), clock: c, f: f}
}

// afterFunc sets a real timer for d of simulated time, lead early, and
// learns from how late it fires.
func (c *Scaled) afterFunc(d time.Duration, f func()) k8sclock.Timer {
	real := c.ToReal(d)
	early := min(time.Duration(c.lead.Load()), real/2)
	deadline := c.real.Now().Add(real)
	return c.real.AfterFunc(real-early, func() {
		c.learn(c.real.Since(deadline))
		f()
	})
}

// learn moves the lead a tenth of the way toward cancelling the lateness
// just seen.
func (c *Scaled) learn(late time.Duration) {
	for {
		old := c.lead.Load()
		next := min(max(old+int64(late)/10, 0), int64(maxLead))
		if c.lead.CompareAndSwap(old, next) {
			return
		}
	}
}

// NewTicker returns a ticker with a simulated period d.
func (c *Scaled) NewTicker(d time.Duration) k8sclock.Ticker {
	return newTicker(c.real.NewTicker(c.ToReal(d)), c.Now)
}

// timer translates the real timer's firing into simulated time.
type timer struct {
	clock *Scaled
	real  k8sclock.Timer
	c     chan time.Time
}

func (t *timer) fire() {
	select {
	case t.c <- t.clock.Now():
	default:
	}
}

func (t *timer) C() <-chan time.Time { return t.c }
func (t *timer) Stop() bool          { return t.real.Stop() }
func (t *timer) Reset(d time.Duration) bool {
	// Drain a stale firing, as time.Timer.Reset documents for its users.
	select {
	case <-t.c:
	default:
	}
	active := t.real.Stop()
	t.real = t.clock.afterFunc(d, t.fire)
	return active
}

type funcTimer struct {
	real  k8sclock.Timer
	clock *Scaled
	f     func()
}

func (t *funcTimer) C() <-chan time.Time { return nil }
func (t *funcTimer) Stop() bool          { return t.real.Stop() }
func (t *funcTimer) Reset(d time.Duration) bool {
	// A new real timer, as timer.Reset makes: the old one's lateness is
	// measured against its own deadline.
	active := t.real.Stop()
	t.real = t.clock.afterFunc(d, t.f)
	return active
}
